/**
 * Restoring a changelog that two members wrote: the owner of a task until a rebalance (A), which went on writing
 * as a zombie, and the member the task moved to (B), which fenced the partition first. Each writes through its own
 * idempotent producer, as a stream thread does, so their batches carry different producer ids.
 */
import { Kafka, logLevel } from "kafkajs";
import * as assert from "uvu/assert";
import { silentLogger } from "../../../../kernel/logger";
import { startBroker, type RunningBroker } from "../../../../providers/broker";
import { RecordProducer, type ProducerRecord } from "../../../../providers/kafka-client";
import { encodeWriter, fenceRecord } from "../../../../providers/streams/kafka/changelog/changelog-fence";
import { restoreFromChangelogs, type RestoreTarget } from "../../../../providers/streams/kafka/changelog/changelog-restorer";
import { POSITIONS_HEADER } from "../../../../providers/streams/kafka/changelog/commit-marker";
import type { TaskState } from "../../../../providers/streams/state";
import type { StoreSpec } from "../../../../kernel/contracts/streams/stores";
import { jsonSerde, keyValueSpec, stateSuite, stringSerde } from "../state/state-fixture";

const { test, dir } = stateSuite("changelog fences");
let broker: RunningBroker;
let bootstrap: string;
const producers: RecordProducer[] = [];
let topicNumber = 0;

test.before(async () => {
  broker = await startBroker({ port: 0, storage: "memory" });
  bootstrap = `127.0.0.1:${broker.port}`;
});

test.after(async () => {
  await Promise.all(producers.map((producer) => producer.close()));
  await broker.close();
});

/** A member's writes: each answers the offset of the last record written; `producerId` is the one they carried. */
interface Writes {
  (records: ProducerRecord[]): Promise<number>;
  producerId?: bigint;
}

/** A changelog topic of its own for each test, and a writer per member. */
async function changelog(): Promise<{ topic: string; writer(): Promise<Writes> }> {
  const topic = `fenced-${++topicNumber}-changelog`;
  const admin = new Kafka({ clientId: "fence-test", brokers: [bootstrap], logLevel: logLevel.NOTHING }).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }] });
  await admin.disconnect();
  return {
    topic,
    async writer() {
      const producer = new RecordProducer({ bootstrapServers: [bootstrap], clientId: `writer-${producers.length}`, logger: silentLogger });
      producers.push(producer);
      await producer.connect();
      const writes: Writes = async (records) => {
        const [landed] = await producer.send([{ topic, partition: 0, records }]);
        writes.producerId = landed.producerId;
        return landed.lastOffset;
      };
      return writes;
    },
  };
}

const count = (key: string, value: number): ProducerRecord => ({ key, value: JSON.stringify(value), timestamp: 1 });
const marked = (key: string, value: number, next: number): ProducerRecord => ({ ...count(key, value), headers: { [POSITIONS_HEADER]: JSON.stringify({ "words:0": String(next) }) } });
const fence = (topic: string, generation: number, member: string): ProducerRecord => fenceRecord(topic, 0, generation, member) as ProducerRecord;

function target(state: TaskState, topic: string, to: number, from = 0, writer?: RestoreTarget["writer"], store = "counts"): RestoreTarget {
  return { state, store, topic, partition: 0, from, to, restored: { records: 0 }, followMarkers: true, writer };
}

async function restored(state: TaskState): Promise<Record<string, number | undefined>> {
  const counts = state.keyValueStore<string, number>("counts");
  return { apple: counts.get("apple"), pear: counts.get("pear"), plum: counts.get("plum") };
}

test("what a zombie writes after the new owner's fence is left out, its markers too; the new owner's commits are applied", async () => {
  const { topic, writer } = await changelog();
  const [a, b] = [await writer(), await writer()];
  await a([fence(topic, 1, "a")]);
  await a([count("apple", 1), marked("pear", 1, 2)]);
  // The task moves to B; A has not noticed.
  const fenceOfB = await b([fence(topic, 2, "b")]);
  await a([marked("apple", 2, 3)]);
  await b([count("apple", 2), marked("pear", 2, 4)]);
  await a([count("plum", 1), marked("pear", 9, 9)]);
  const end = await b([marked("apple", 3, 5)]);

  // B's own restore ended at its fence: A's commit before it is in.
  const atTakeover = await dir.open([keyValueSpec()]);
  await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [target(atTakeover, topic, fenceOfB)], silentLogger);
  assert.equal(await restored(atTakeover), { apple: 1, pear: 1, plum: undefined });
  assert.equal(atTakeover.checkpoint().inputPositions, { "words:0": "2" });
  await atTakeover.close();

  // A later owner's restore of the whole changelog holds B's counts, at B's positions.
  const later = await dir.open([keyValueSpec()]);
  const whole = target(later, topic, end + 1);
  await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [whole], silentLogger);
  assert.equal(await restored(later), { apple: 3, pear: 2, plum: undefined });
  assert.equal(later.checkpoint().inputPositions, { "words:0": "5" });
  assert.equal(later.checkpoint().changelogPositions, { counts: String(end) });
  assert.is(whole.writer, b.producerId);
  assert.equal(later.checkpoint().changelogWriters, { counts: encodeWriter(b.producerId!) });
});

test("the log's order decides, not group generations: a fence of a lower generation (a broker that lost its groups) takes over too", async () => {
  const { topic, writer } = await changelog();
  const [a, b] = [await writer(), await writer()];
  await a([fence(topic, 9, "a")]);
  await a([marked("apple", 1, 1)]);
  await b([fence(topic, 1, "b")]);
  await b([marked("apple", 2, 2)]);
  const end = await a([marked("apple", 7, 8)]);
  const state = await dir.open([keyValueSpec()]);
  await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [target(state, topic, end + 1)], silentLogger);
  assert.equal(await restored(state), { apple: 2, pear: undefined, plum: undefined });
  assert.equal(state.checkpoint().inputPositions, { "words:0": "2" });
});

test("a restore from a checkpoint starts with the checkpoint's writer as the owner: another writer's records after it are left out", async () => {
  const { topic, writer } = await changelog();
  const [a, b] = [await writer(), await writer()];
  await b([fence(topic, 3, "b")]);
  const checkpointed = await b([marked("apple", 1, 1)]);
  await a([marked("apple", 6, 6)]);
  const end = await b([marked("pear", 1, 2)]);

  const state = await dir.open([keyValueSpec()]);
  state.keyValueStore<string, number>("counts").put("apple", 1);
  await state.commit({ inputPositions: { "words:0": "1" }, changelogPositions: { counts: String(checkpointed) } });
  await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [target(state, topic, end + 1, checkpointed + 1, b.producerId)], silentLogger);
  assert.equal(await restored(state), { apple: 1, pear: 1, plum: undefined });
  assert.equal(state.checkpoint().inputPositions, { "words:0": "2" });
});

test("before any fence, a marker applies only its own writer's records: another's unfinished commit between them is left out", async () => {
  const { topic, writer } = await changelog();
  const [a, b] = [await writer(), await writer()];
  await a([count("plum", 4)]);
  const end = await b([count("apple", 1), marked("pear", 1, 2)]);
  const state = await dir.open([keyValueSpec()]);
  await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [target(state, topic, end + 1)], silentLogger);
  assert.equal(await restored(state), { apple: 1, pear: 1, plum: undefined });
});


/**
 * A task's owners one after another, each as a stream thread is one: it fences the changelog, restores up to its fence
 * into an empty state dir, processes (its store writes drained into one changelog send per commit, the last record
 * carrying the commit's marker), commits, and finally crashes with a commit half sent. The truth is the last owner's
 * committed state; a fresh member restoring the whole changelog must hold exactly that.
 */
type Owner = (state: TaskState, owner: number) => void;

async function moveTwice<T>(spec: StoreSpec, process: Owner, dump: (state: TaskState) => Promise<T>): Promise<T> {
  const { topic, writer } = await changelog();
  let truth: T | undefined;
  let next = 0;
  for (const owner of [0, 1, 2]) {
    const writes = await writer();
    const fenceAt = await writes([fence(topic, owner + 1, `member-${owner}`)]);
    const state = await dir.open([spec], { taskId: `0_0-owner-${owner}` });
    await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [target(state, topic, fenceAt, 0, undefined, spec.name)], silentLogger);
    for (const round of [0, 1]) {
      process(state, owner * 2 + round);
      const positions = { "words:0": String(++next) };
      state.flushCache();
      const changes = state.drainChangelog();
      const last = await writes(changes.map((change, i) => ({ key: change.key, value: change.value, timestamp: change.timestamp, headers: i === changes.length - 1 ? { [POSITIONS_HEADER]: JSON.stringify(positions) } : undefined })));
      await state.commit({ inputPositions: positions, changelogPositions: { [spec.name]: String(last) } });
    }
    truth = await dump(state);
    // A commit half sent when the owner crashed: its marker never went out.
    process(state, 99);
    state.flushCache();
    await writes(state.drainChangelog().map((change) => ({ key: change.key, value: change.value, timestamp: change.timestamp })));
  }
  const restoring = await dir.open([spec], { taskId: "0_0-fresh" });
  const end = await (await writer())([fence(topic, 9, "fresh")]);
  await restoreFromChangelogs({ bootstrapServers: [bootstrap] }, "restore-test", "app", [target(restoring, topic, end, 0, undefined, spec.name)], silentLogger);
  assert.equal(await dump(restoring), truth);
  return truth!;
}

const GAP = 10;
const users = ["ann", "bob", "cy"];

test("a session store moved twice, to empty state dirs each time, restores to its last owner's sessions: merged, new and untouched", async () => {
  const spec: StoreSpec = { name: "counts", type: "session", keySerde: stringSerde, valueSerde: jsonSerde<number>() };
  // Each round adds one record per user at a time that merges with the previous round's session or starts a new one.
  const process: Owner = (state, round) => {
    const sessions = state.sessionStore<string, number>("counts");
    users.forEach((user, i) => {
      const time = round * (i + 1) * 7;
      const merged = sessions.findSessions(user, time - GAP, time + GAP);
      for (const { key, windowStart, windowEnd } of merged) sessions.remove({ key, start: windowStart, end: windowEnd });
      const start = Math.min(time, ...merged.map((session) => session.windowStart));
      const end = Math.max(time, ...merged.map((session) => session.windowEnd));
      sessions.put({ key: user, start, end }, merged.reduce((sum, session) => sum + session.value, 1));
    });
  };
  const dump = async (state: TaskState) => users.map((user) => state.sessionStore<string, number>("counts").findSessions(user, 0, Number.MAX_SAFE_INTEGER));
  const [, bob] = await moveTwice(spec, process, dump);
  // The first owner's session of bob, which no later owner touched, is among them.
  assert.equal(bob[0], { key: "bob", windowStart: 0, windowEnd: 0, value: 1 });
});

test("a window store moved twice restores to its last owner's windows", async () => {
  const windows: StoreSpec = { name: "counts", type: "window", keySerde: stringSerde, valueSerde: jsonSerde<number>(), windowSizeMs: 10, retainDuplicates: false };
  await moveTwice(
    windows,
    (state, round) => {
      const store = state.windowStore<string, number>("counts");
      for (const user of users) for (const start of [round * 10, 20]) store.put(user, (store.fetch(user, start) ?? 0) + 1, start);
    },
    async (state) => users.map((user) => state.windowStore<string, number>("counts").fetchRange(user, 0, Number.MAX_SAFE_INTEGER)),
  );
});

test("a key-value store moved twice restores to its last owner's counts", async () => {
  await moveTwice(
    keyValueSpec(),
    (state, round) => {
      const counts = state.keyValueStore<string, number>("counts");
      for (const user of users.slice(round % 2)) counts.put(`${user}-${round % 3}`, (counts.get(`${user}-${round % 3}`) ?? 0) + round);
    },
    async (state) => Object.fromEntries(users.flatMap((user) => [0, 1, 2].map((n) => [`${user}-${n}`, state.keyValueStore<string, number>("counts").get(`${user}-${n}`)]))),
  );
});

test.run();
