/**
 * The commit sequence alone, with real task states and a producer that only records: a batch is processed in
 * slices whose outputs leave ahead; once a fetch's batches are processed, their outputs and changelogs are
 * acknowledged before the stores commit with their positions, and only then does the commit return (for the
 * consumer to commit the offsets).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../../kernel/contracts/streams/dsl";
import { silentLogger } from "../../../../kernel/logger";
import type { FetchedBatch, PartitionBatches, PartitionOffsets } from "../../../../providers/kafka-client";
import { encodeRecordBatch, FetchedRecords, type ProducerRecord, recordCount } from "../../../../providers/kafka-protocol";
import { MembershipLostError } from "../../../../providers/kafka-client";
import { POSITIONS_HEADER } from "../../../../providers/streams/kafka/changelog/commit-marker";
import { CommitSequence, RECORDS_PER_TURN } from "../../../../providers/streams/kafka/processing/commit-sequence";
import { RecordCollector, type RecordSender } from "../../../../providers/streams/kafka/processing/record-collector";
import { OriginStamps } from "../../../../providers/streams/engine/origin-stamps";
import { openRunTask, type RunTask } from "../../../../providers/streams/kafka/processing/run-task";
import { applicationConfig } from "../../../../providers/streams/streams-config";
import { buildTopology } from "../../../../providers/streams/engine/build-topology";
import { recordsOf } from "../../../helpers/record-batches";
import { rowValue } from "../../../helpers/table-rows";
import { bareTaskEnvironment } from "../../../helpers/task-environment";

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
  readonly sent: PartitionBatches[] = [];
  inFlight = 0;
  mostInFlight = 0;
  failing = false;
  /** The producer id its sends answer with. */
  producerId = -1n;
  /** Topic/partition → the next offset there. */
  readonly ends = new Map<string, number>();

  async send(partitions: PartitionBatches[]): Promise<PartitionOffsets[]> {
    this.events.push(`send ${partitions.map(({ topic, batches }) => `${topic}×${recordCount(batches)}`).join(" ")}`);
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    await new Promise((resolve) => setImmediate(resolve));
    this.inFlight--;
    if (this.failing) throw new Error("the broker refused the records");
    this.events.push("acknowledged");
    this.sent.push(...partitions);
    return partitions.map(({ topic, partition, batches }) => {
      const key = `${topic}/${partition}`;
      const baseOffset = this.ends.get(key) ?? 0;
      const count = recordCount(batches);
      this.ends.set(key, baseOffset + count);
      return { topic, partition, baseOffset, lastOffset: baseOffset + count - 1, producerId: this.producerId };
    });
  }
}

interface Context {
  dir: string;
  sender: RecordingSender;
  sequence: CommitSequence;
  task: RunTask;
  opened: RunTask[];
  openTask(partition: number): Promise<RunTask>;
}

const test = suite<Context>("the commit sequence");

test.before.each(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-sequence-"));
  context.sender = new RecordingSender();
  const collector = new RecordCollector(context.sender, () => 1, () => undefined);
  context.openTask = async (partition) => {
    const task = await openRunTask({
      topology,
      subTopologyId: 0,
      partition,
      stateDir: context.dir,
      env: bareTaskEnvironment("counter", context.dir, (record) => collector.collect(record)),
      counters: { read: () => undefined, write: () => undefined },
      logger: silentLogger,
    });
    const commit = task.state.commit.bind(task.state);
    task.state.commit = async (positions) => {
      context.sender.events.push(`store commit ${task.id}`);
      await commit(positions);
    };
    context.opened.push(task);
    return task;
  };
  context.opened = [];
  context.task = await context.openTask(0);
  context.sequence = new CommitSequence({ topology, collector, metrics: { consumed: () => undefined, lag: () => undefined, storeCommit: () => undefined } });
});

test.after.each(async ({ dir, opened }) => {
  for (const task of opened) await task.state.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A fetched batch of "in" holding `records` at offsets 0, 1, …; `from`: the first offset handed out. */
function batchOf(records: ProducerRecord[], from = 0, partition = 0): FetchedBatch {
  return { topic: "in", partition, records: new FetchedRecords(encodeRecordBatch(records), from, `in-${partition}`), nextOffset: records.length, highWatermark: records.length, lastStableOffset: records.length };
}

const unseen = () => ({ consumedOffset: -1, consumedTimestamp: -1 });

/** A fetch holding one batch: processed, then committed. */
async function runFetch(sequence: CommitSequence, task: RunTask, batch: FetchedBatch, consumed = unseen()): Promise<void> {
  await sequence.process(task, batch, consumed);
  await sequence.commit([task]);
}

const word = (key: string, headers?: Record<string, string>): ProducerRecord => ({ key: Buffer.from(key), value: Buffer.from(key), timestamp: 1_000, headers });

async function committedCount(task: RunTask, key: string): Promise<unknown> {
  return rowValue(task.state.readOnly("counts"), key);
}

test("outputs and changelog are acknowledged before the stores commit with the batch's positions, then the commit returns", async ({ sender, sequence, task }) => {
  const consumed = { consumedOffset: -1, consumedTimestamp: -1 };
  await runFetch(sequence, task, batchOf([word("a"), word("b"), word("a")]), consumed);
  sender.events.push("commit returned");
  assert.equal(sender.events, ["send out×3 counter-counts-changelog×2", "acknowledged", "store commit 0_0", "commit returned"]);
  assert.equal(task.state.checkpoint(), { inputPositions: { "in:0": "3", "time:in:0": "1000" }, changelogPositions: { counts: "1" }, changelogWriters: {} });
  assert.is(await committedCount(task, "a"), 2);
  assert.equal(consumed, { consumedOffset: 2, consumedTimestamp: 1_000 });
});

test("the last changelog record of a one-store task carries the task's positions", async ({ sender, sequence, task }) => {
  await runFetch(sequence, task, batchOf([word("a"), word("b")]));
  const changelog = recordsOf(sender.sent.find(({ topic }) => topic === "counter-counts-changelog")!.batches);
  assert.equal(
    changelog.map((record) => record.headers?.[POSITIONS_HEADER] ?? undefined),
    [undefined, JSON.stringify({ "in:0": "2", "time:in:0": "1000" })],
  );
});

test("a batch larger than a slice sends its outputs ahead, one send at a time, and commits once", async ({ sender, sequence, task }) => {
  const records = Array.from({ length: 2 * RECORDS_PER_TURN + 10 }, (_, i) => word(`k${i % 50}`));
  await runFetch(sequence, task, batchOf(records));
  const sends = sender.events.filter((event) => event.startsWith("send"));
  assert.equal(sends, [`send out×${RECORDS_PER_TURN - 1}`, `send out×${RECORDS_PER_TURN}`, "send out×11 counter-counts-changelog×50"]);
  assert.is(sender.mostInFlight, 1);
  assert.is(sender.events.filter((event) => event.startsWith("store commit")).length, 1);
  assert.is(sender.events.at(-1), "store commit 0_0");
  assert.equal(task.state.checkpoint().inputPositions, { "in:0": String(records.length), "time:in:0": "1000" });
});

test("a send that fails commits nothing: the stores and positions stay at the last commit", async ({ sender, sequence, task }) => {
  await runFetch(sequence, task, batchOf([word("a")]));
  sender.failing = true;
  await runFetch(sequence, task, batchOf([word("a"), word("a")])).then(
    () => assert.unreachable("the batch must fail with its send"),
    (error: Error) => assert.match(error.message, "the broker refused the records"),
  );
  assert.equal(task.state.checkpoint(), { inputPositions: { "in:0": "1", "time:in:0": "1000" }, changelogPositions: { counts: "0" }, changelogWriters: {} });
  assert.is(await committedCount(task, "a"), 1);
});

test("records the task applied already are skipped: below its input position, and re-sent repartition records", async ({ sequence, task }) => {
  const stamped = (key: string, offset: number): ProducerRecord => ({ ...word(key), stamp: new OriginStamps(3).stamp("upstream", offset, 0) });
  await runFetch(sequence, task, batchOf([stamped("a", 7), stamped("a", 8)]));
  // The same input again, as after a crash before the offsets were committed, and one record more.
  await runFetch(sequence, task, batchOf([stamped("a", 7), stamped("a", 8), stamped("a", 9)]));
  assert.is(await committedCount(task, "a"), 3);
  // Origins the task applied: a re-sent record at a new offset (a retried send) is skipped too.
  task.positions.inputs.set("in", 0, 0);
  await runFetch(sequence, task, batchOf([stamped("a", 9), stamped("a", 10)]));
  assert.is(await committedCount(task, "a"), 4);
  assert.equal(task.state.checkpoint().inputPositions, { "in:0": "2", "time:in:0": "1000", "origin:upstream:3": "10.0" });
});

test("a fetch's batches of several tasks are processed first, then leave in one send and commit after its acknowledgement", async (context) => {
  const { sender, sequence, task } = context;
  const other = await context.openTask(1);
  await sequence.process(task, batchOf([word("a"), word("b")]), unseen());
  await sequence.process(other, batchOf([word("c"), word("c"), word("c")], 0, 1), unseen());
  assert.is(sender.events.filter((event) => event.startsWith("store commit")).length, 0, "nothing commits before the fetch is done");
  await sequence.commit([task, other]);
  assert.equal(sender.events.slice(-4), ["send out×5 counter-counts-changelog×2 counter-counts-changelog×1", "acknowledged", "store commit 0_0", "store commit 0_1"]);
  assert.equal(task.state.checkpoint().inputPositions, { "in:0": "2", "time:in:0": "1000" });
  assert.equal(other.state.checkpoint().inputPositions, { "in:1": "3", "time:in:1": "1000" });
  assert.is(await committedCount(other, "c"), 3);
});

/** The task as it stands after its fence at offset 0 of its changelog, written as producer 7. */
function fenced(sender: RecordingSender, task: RunTask): void {
  sender.ends.set("counter-counts-changelog/0", 1);
  sender.producerId = 7n;
  task.changelogPositions.set("counts", 0);
  task.changelogWriter = 7n;
}

test("a commit whose changelog records land after another writer's (a member that took the task over) commits nothing and reports the membership lost", async ({ sender, sequence, task }) => {
  fenced(sender, task);
  await runFetch(sequence, task, batchOf([word("a")]));
  assert.equal(task.state.checkpoint().changelogPositions, { counts: "1" });
  assert.equal(task.state.checkpoint().changelogWriters, { counts: "7" });
  // Another member's fence lands first.
  sender.ends.set("counter-counts-changelog/0", 3);
  await runFetch(sequence, task, batchOf([word("a"), word("a")])).then(
    () => assert.unreachable("the commit must fail"),
    (error: Error) => {
      assert.instance(error, MembershipLostError);
      assert.match(error.message, "task 0_0: its changelog counter-counts-changelog partition 0 (store counts) was written by another member since offset 1: this commit landed at 3–3, 1 records");
    },
  );
  assert.equal(task.state.checkpoint(), { inputPositions: { "in:0": "1", "time:in:0": "1000" }, changelogPositions: { counts: "1" }, changelogWriters: { counts: "7" } });
  assert.is(await committedCount(task, "a"), 1);
});

test("a commit landing under another producer id than the task's fence commits nothing either", async ({ sender, sequence, task }) => {
  fenced(sender, task);
  sender.producerId = 8n;
  await runFetch(sequence, task, batchOf([word("a")])).then(
    () => assert.unreachable("the commit must fail"),
    (error: Error) => assert.match(error.message, "took this commit under producer id 8, not 7 of the task's fence"),
  );
  assert.equal(task.state.checkpoint().inputPositions, {});
});

test.run();
