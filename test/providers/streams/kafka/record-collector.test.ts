/**
 * The record collector with a producer whose acknowledgements the test hands out: outputs sent ahead leave one send
 * at a time, processing does not wait for an acknowledgement until MOST_PENDING_AHEAD outputs are waiting, and
 * nothing leaves after a send that failed.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { PartitionBatches, PartitionOffsets } from "../../../../providers/kafka-client";
import { recordCount } from "../../../../providers/kafka-protocol";
import { MOST_PENDING_AHEAD, RecordCollector, type RecordSender } from "../../../../providers/streams/kafka/processing/record-collector";
import { eventually } from "../../../helpers/eventually";

/** A producer that acknowledges (or fails) each send only when the test says so. */
class HeldSender implements RecordSender {
  /** Records per send, in the order sent. */
  readonly sends: number[] = [];
  private readonly answers: { resolve: (offsets: PartitionOffsets[]) => void; reject: (error: Error) => void; partitions: PartitionBatches[] }[] = [];

  send(partitions: PartitionBatches[]): Promise<PartitionOffsets[]> {
    this.sends.push(partitions.reduce((sum, { batches }) => sum + recordCount(batches), 0));
    return new Promise((resolve, reject) => this.answers.push({ resolve, reject, partitions }));
  }

  acknowledge(): void {
    const { resolve, partitions } = this.answers.shift()!;
    resolve(partitions.map(({ topic, partition, batches }) => ({ topic, partition, baseOffset: 0, lastOffset: recordCount(batches) - 1, producerId: -1n })));
  }

  fail(): void {
    this.answers.shift()!.reject(new Error("the broker refused the records"));
  }
}

interface Context {
  sender: HeldSender;
  collector: RecordCollector;
  collect(count: number): void;
}

const test = suite<Context>("the record collector");

test.before.each((context) => {
  context.sender = new HeldSender();
  const collector = new RecordCollector(context.sender, () => 1, () => undefined);
  context.collector = collector;
  context.collect = (count) => {
    for (let i = 0; i < count; i++) collector.collect({ topic: "out", key: `k${i}`, value: "v", timestamp: 1_000 });
  };
});

/** Whether `promise` is still pending after a few turns of the event loop. */
async function stillPending(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
  return !settled;
}

test("outputs collected while a send ahead is unacknowledged wait, without holding up processing, and leave in the next send after it", async ({ sender, collector, collect }) => {
  collect(3);
  await collector.sendAhead();
  assert.equal(sender.sends, [3]);
  collect(2);
  const ahead = collector.sendAhead();
  assert.not.ok(await stillPending(ahead), "sendAhead waited for the acknowledgement");
  assert.equal(sender.sends, [3], "no second send while the first is unacknowledged");
  sender.acknowledge();
  collect(1);
  await collector.sendAhead();
  assert.equal(sender.sends, [3, 3]);
});

test(`with ${MOST_PENDING_AHEAD} outputs waiting, processing waits for the send ahead's acknowledgement`, async ({ sender, collector, collect }) => {
  collect(1);
  await collector.sendAhead();
  collect(MOST_PENDING_AHEAD);
  const waiting = collector.sendAhead();
  assert.ok(await stillPending(waiting), "sendAhead returned before the acknowledgement");
  assert.equal(sender.sends, [1]);
  sender.acknowledge();
  await waiting;
  assert.equal(sender.sends, [1, MOST_PENDING_AHEAD]);
});

test("a failed send ahead is thrown by the next sendAhead, and nothing leaves after it", async ({ sender, collector, collect }) => {
  collect(2);
  await collector.sendAhead();
  sender.fail();
  collect(1);
  await collector.sendAhead().then(
    () => assert.unreachable("the failed send must be thrown"),
    (error: Error) => assert.match(error.message, "the broker refused the records"),
  );
  assert.equal(sender.sends, [2]);
});

test("the flush waits for the send ahead, then sends what waited with the changelog and answers where it landed", async ({ sender, collector, collect }) => {
  collect(2);
  await collector.sendAhead();
  collect(4);
  await collector.sendAhead();
  const flushing = collector.flush([{ topic: "changelog", partition: 0, key: "k", value: "1", timestamp: 1_000 }]);
  assert.ok(await stillPending(flushing), "the flush returned before its records were acknowledged");
  assert.equal(sender.sends, [2]);
  sender.acknowledge();
  await eventually(() => sender.sends.length === 2, { timeoutMs: 5_000, what: "the flush's send" });
  assert.equal(sender.sends, [2, 5]);
  sender.acknowledge();
  assert.equal(
    (await flushing).map(({ topic, lastOffset }) => `${topic}:${lastOffset}`),
    ["out:3", "changelog:0"],
  );
});

test.run();
