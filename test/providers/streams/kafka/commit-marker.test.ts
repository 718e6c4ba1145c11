/**
 * Restoring a store from a changelog whose commits carry markers (the task's input positions in a header of each
 * commit's last record): the store is restored up to the last marker and takes its positions, so the next owner of
 * the task skips the input already in the restored state; the records of a commit that never completed (no marker
 * after them) are left out, as their input is processed again.
 */
import { Kafka, logLevel } from "kafkajs";
import * as assert from "uvu/assert";
import { startBroker, type RunningBroker } from "../../../../providers/broker";
import { silentLogger } from "../../../../kernel/logger";
import { POSITIONS_HEADER } from "../../../../providers/streams/kafka/changelog/commit-marker";
import { restoreFromChangelogs, type RestoreTarget } from "../../../../providers/streams/kafka/changelog/changelog-restorer";
import type { TaskState } from "../../../../providers/streams/state";
import { keyValueSpec, stateSuite } from "../state/state-fixture";

const { test, dir } = stateSuite("changelog commit markers");
const TOPIC = "app-counts-changelog";
let broker: RunningBroker;
let bootstrap: string;

test.before(async () => {
  broker = await startBroker({ port: 0, storage: "memory" });
  bootstrap = `127.0.0.1:${broker.port}`;
  const kafka = new Kafka({ clientId: "commit-marker-test", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  const count = (key: string, value: number, positions?: Record<string, string>) => ({
    key,
    value: JSON.stringify(value),
    headers: positions ? { [POSITIONS_HEADER]: JSON.stringify(positions) } : undefined,
  });
  // Two complete commits, then the first records of one that never completed.
  await producer.send({ topic: TOPIC, messages: [count("apple", 1), count("pear", 1, { "words:0": "2", "origin:words:1": "4.0" })] });
  await producer.send({ topic: TOPIC, messages: [count("apple", 2, { "words:0": "3", "origin:words:1": "6.1" })] });
  await producer.send({ topic: TOPIC, messages: [count("pear", 7), count("plum", 1)] });
  await producer.disconnect();
});

test.after(async () => {
  await broker.close();
});

function target(state: TaskState, followMarkers: boolean): RestoreTarget {
  return { state, store: "counts", topic: TOPIC, partition: 0, from: 0, to: 5, restored: { records: 0 }, followMarkers };
}

test("a store is restored up to the last commit marker and takes its input positions", async () => {
  const state = await dir.open([keyValueSpec()]);
  await state.commit({ inputPositions: { "words:0": "1", "origin:words:9": "1.0" } });
  await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [target(state, true)], silentLogger);
  const counts = state.keyValueStore<string, number>("counts");
  assert.equal([counts.get("apple"), counts.get("pear"), counts.get("plum")], [2, 1, undefined]);
  assert.equal(state.checkpoint(), { inputPositions: { "words:0": "3", "origin:words:1": "6.1" }, changelogPositions: { counts: "2" }, changelogWriters: {} });
});

test("without following markers (a task with several stores) the whole changelog is applied and positions stay", async () => {
  const state = await dir.open([keyValueSpec()]);
  await state.commit({ inputPositions: { "words:0": "1" } });
  await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [target(state, false)], silentLogger);
  const counts = state.keyValueStore<string, number>("counts");
  assert.equal([counts.get("apple"), counts.get("pear"), counts.get("plum")], [2, 7, 1]);
  assert.equal(state.checkpoint(), { inputPositions: { "words:0": "1" }, changelogPositions: { counts: "4" }, changelogWriters: {} });
});

test.run();
