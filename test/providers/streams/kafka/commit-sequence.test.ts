/**
 * The per-batch commit sequence alone, with a real task state and a producer that only records: a batch is
 * processed in slices whose outputs leave ahead, its outputs and changelog are acknowledged before its stores
 * commit with its positions, and only then does it return (for the consumer to commit the offsets).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../../kernel/contracts/streams/dsl";
import { silentLogger } from "../../../../kernel/logger";
import type { FetchedBatch, PartitionOffsets, PartitionRecords } from "../../../../providers/kafka-client";
import { encodeRecordBatch, FetchedRecords, type ProducerRecord } from "../../../../providers/kafka-protocol";
import { POSITIONS_HEADER } from "../../../../providers/streams/kafka/commit-marker";
import { CommitSequence, RECORDS_PER_TURN } from "../../../../providers/streams/kafka/commit-sequence";
import { RecordCollector, type RecordSender } from "../../../../providers/streams/kafka/record-collector";
import { OriginStamps } from "../../../../providers/streams/kafka/repartition-origin";
import { openRunTask, type RunTask } from "../../../../providers/streams/kafka/run-task";
import { applicationConfig } from "../../../../providers/streams/streams-config";
import { buildTopology } from "../../../../providers/streams/topology/build-topology";

const topology = buildTopology(
  {
    name: "counter",
    version: "1",
    config: { "application.id": "counter" },
    topology: (builder: StreamsBuilder) => builder.stream<string, string>("in").groupByKey().count({ storeName: "counts" }).toStream().to("out"),
  },
  applicationConfig([{ values: { "application.id": "counter" }, source: "the test" }]),
);

/** A producer that records each send and acknowledges it a turn later, or fails every send when told to. */
class RecordingSender implements RecordSender {
  readonly events: string[] = [];
  readonly sent: PartitionRecords[] = [];
  inFlight = 0;
  mostInFlight = 0;
  failing = false;
  private readonly ends = new Map<string, number>();

  async send(partitions: PartitionRecords[]): Promise<PartitionOffsets[]> {
    this.events.push(`send ${partitions.map(({ topic, records }) => `${topic}×${records.length}`).join(" ")}`);
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    this.inFlight--;
    if (this.failing) throw new Error("the broker refused the records");
    this.events.push("acknowledged");
    this.sent.push(...partitions);
    return partitions.map(({ topic, partition, records }) => {
      const key = `${topic}/${partition}`;
      const baseOffset = this.ends.get(key) ?? 0;
      this.ends.set(key, baseOffset + records.length);
      return { topic, partition, baseOffset, lastOffset: baseOffset + records.length - 1 };
    });
  }
}

interface Context {
  dir: string;
  sender: RecordingSender;
  sequence: CommitSequence;
  task: RunTask;
}

const test = suite<Context>("the per-batch commit sequence");

test.before.each(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-sequence-"));
  context.sender = new RecordingSender();
  const collector = new RecordCollector(context.sender, () => 1, () => undefined);
  context.task = await openRunTask({
    topology,
    subTopologyId: 0,
    partition: 0,
    stateDir: context.dir,
    env: { applicationId: "counter", emit: (record) => collector.collect(record), sendEvent: () => undefined, onError: (error) => { throw error; }, now: Date.now },
    counters: { read: () => undefined, write: () => undefined },
    logger: silentLogger,
  });
  const commit = context.task.state.commit.bind(context.task.state);
  context.task.state.commit = async (positions) => {
    context.sender.events.push("store commit");
    await commit(positions);
  };
  context.sequence = new CommitSequence({ topology, collector, metrics: { consumed: () => undefined, lag: () => undefined, storeCommit: () => undefined } });
});

test.after.each(async ({ dir, task }) => {
  await task.state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A fetched batch of "in" partition 0 holding `records` at offsets 0, 1, …; `from`: the first offset handed out. */
function batchOf(records: ProducerRecord[], from = 0): FetchedBatch {
  return { topic: "in", partition: 0, records: new FetchedRecords(encodeRecordBatch(records), from, "in-0"), nextOffset: records.length, highWatermark: records.length };
}

const word = (key: string, headers?: Record<string, string>): ProducerRecord => ({ key: Buffer.from(key), value: Buffer.from(key), timestamp: 1_000, headers });

async function committedCount(task: RunTask, key: string): Promise<unknown> {
  const store = task.state.readOnly("counts");
  return store.type === "key_value" ? store.store.get(key) : undefined;
}

test("outputs and changelog are acknowledged before the stores commit with the batch's positions, then the batch returns", async ({ sender, sequence, task }) => {
  const consumed = { consumedOffset: -1, consumedTimestamp: -1 };
  await sequence.runBatch(task, batchOf([word("a"), word("b"), word("a")]), consumed);
  sender.events.push("batch returned");
  assert.equal(sender.events, ["send out×3 counter-counts-changelog×2", "acknowledged", "store commit", "batch returned"]);
  assert.equal(task.state.checkpoint(), { inputPositions: { "in:0": "3" }, changelogPositions: { counts: "1" } });
  assert.is(await committedCount(task, "a"), 2);
  assert.equal(consumed, { consumedOffset: 2, consumedTimestamp: 1_000 });
});

test("the last changelog record of a one-store task carries the task's positions", async ({ sender, sequence, task }) => {
  await sequence.runBatch(task, batchOf([word("a"), word("b")]), { consumedOffset: -1, consumedTimestamp: -1 });
  const changelog = sender.sent.find(({ topic }) => topic === "counter-counts-changelog")!.records;
  assert.equal(
    changelog.map((record) => record.headers?.[POSITIONS_HEADER]?.toString()),
    [undefined, JSON.stringify({ "in:0": "2" })],
  );
});

test("a batch larger than a slice sends its outputs ahead, one send at a time, and commits once", async ({ sender, sequence, task }) => {
  const records = Array.from({ length: 2 * RECORDS_PER_TURN + 10 }, (_, i) => word(`k${i % 50}`));
  await sequence.runBatch(task, batchOf(records), { consumedOffset: -1, consumedTimestamp: -1 });
  const sends = sender.events.filter((event) => event.startsWith("send"));
  assert.equal(sends, [`send out×${RECORDS_PER_TURN - 1}`, `send out×${RECORDS_PER_TURN}`, "send out×11 counter-counts-changelog×50"]);
  assert.is(sender.mostInFlight, 1);
  assert.is(sender.events.filter((event) => event === "store commit").length, 1);
  assert.is(sender.events.at(-1), "store commit");
  assert.equal(task.state.checkpoint().inputPositions, { "in:0": String(records.length) });
});

test("a send that fails commits nothing: the stores and positions stay at the last commit", async ({ sender, sequence, task }) => {
  await sequence.runBatch(task, batchOf([word("a")]), { consumedOffset: -1, consumedTimestamp: -1 });
  sender.failing = true;
  await sequence.runBatch(task, batchOf([word("a"), word("a")]), { consumedOffset: -1, consumedTimestamp: -1 }).then(
    () => assert.unreachable("the batch must fail with its send"),
    (error: Error) => assert.match(error.message, "the broker refused the records"),
  );
  assert.equal(task.state.checkpoint(), { inputPositions: { "in:0": "1" }, changelogPositions: { counts: "0" } });
  assert.is(await committedCount(task, "a"), 1);
});

test("records the task applied already are skipped: below its input position, and re-sent repartition records", async ({ sequence, task }) => {
  const stamped = (key: string, offset: number): ProducerRecord => ({ ...word(key), stamp: new OriginStamps(3).stamp("upstream", offset, 0) });
  await sequence.runBatch(task, batchOf([stamped("a", 7), stamped("a", 8)]), { consumedOffset: -1, consumedTimestamp: -1 });
  // The same input again, as after a crash before the offsets were committed, and one record more.
  await sequence.runBatch(task, batchOf([stamped("a", 7), stamped("a", 8), stamped("a", 9)]), { consumedOffset: -1, consumedTimestamp: -1 });
  assert.is(await committedCount(task, "a"), 3);
  // Origins the task applied: a re-sent record at a new offset (a retried send) is skipped too.
  task.positions.inputs.set("in", 0, 0);
  await sequence.runBatch(task, batchOf([stamped("a", 9), stamped("a", 10)]), { consumedOffset: -1, consumedTimestamp: -1 });
  assert.is(await committedCount(task, "a"), 4);
  assert.equal(task.state.checkpoint().inputPositions, { "in:0": "2", "origin:upstream:3": "10.0" });
});

test.run();
