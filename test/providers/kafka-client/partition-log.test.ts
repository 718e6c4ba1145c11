/**
 * A topic's partition as a log (KAFKA_TOPIC_LOGS' implementation) against the embedded broker: created with its
 * configs on first use, read to its end from any offset, appended to, read from its start when records before it
 * were deleted, and opened again after close.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ClusterAdmin, PartitionLog } from "../../../providers/kafka-client";
import type { LogRecord } from "../../../kernel/contracts/kafka-topic-log";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";

const test = suite<{ broker: TestBroker; admin: ClusterAdmin; log: PartitionLog }>("kafka client: partition log");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ autoCreateTopics: false });
  const endpoint = { bootstrapServers: [context.broker.bootstrap] };
  context.admin = new ClusterAdmin({ ...endpoint, clientId: "partition-log-test" });
  context.log = new PartitionLog(() => endpoint, "state", { clientId: "partition-log-test", configs: { "cleanup.policy": "compact" } });
});

test.after.each(async ({ broker, admin, log }) => {
  await log.close();
  admin.close();
  await broker.close();
});

/** What `readToEnd(from)` hands over, as text, and where it says to read next. */
async function readFrom(log: PartitionLog, from: number): Promise<{ records: [number, string | null, string | null][]; next: number }> {
  const records: [number, string | null, string | null][] = [];
  const next = await log.readToEnd(from, ({ offset, key, value }: LogRecord) => records.push([offset, key?.toString() ?? null, value?.toString() ?? null]));
  return { records, next };
}

test("creates its topic, single-partition with its configs, on the first read; nothing before", async ({ admin, log }) => {
  assert.not.ok((await admin.listTopics()).includes("state"), "opening connects to nothing");
  assert.equal(await readFrom(log, 0), { records: [], next: 0 });
  assert.equal([...(await admin.offsetsOf("state")).keys()], [0]);
  assert.is((await admin.describeTopicConfigs("state")).get("cleanup.policy"), "compact");
});

test("appends answer their offsets; a read hands every record from its offset to the end, in order", async ({ log }) => {
  assert.is(await log.append("a", "1"), 0);
  assert.is(await log.append("b", null), 1);
  assert.is(await log.append(Buffer.from("c"), Buffer.from("3")), 2);
  assert.equal(await readFrom(log, 0), { records: [[0, "a", "1"], [1, "b", null], [2, "c", "3"]], next: 3 });
  assert.equal(await readFrom(log, 2), { records: [[2, "c", "3"]], next: 3 });
  assert.equal(await readFrom(log, 3), { records: [], next: 3 });
});

test("a read from before the log's start reads from its start", async ({ admin, log }) => {
  for (const value of ["1", "2", "3"]) await log.append("k", value);
  await admin.deleteRecords("state", new Map([[0, 2]]));
  assert.equal(await readFrom(log, 0), { records: [[2, "k", "3"]], next: 3 });
});

test("after close, a read or an append opens it again", async ({ log }) => {
  await log.append("a", "1");
  await log.close();
  assert.is(await log.append("b", "2"), 1);
  await log.close();
  assert.equal((await readFrom(log, 1)).records, [[1, "b", "2"]]);
});

test.run();
