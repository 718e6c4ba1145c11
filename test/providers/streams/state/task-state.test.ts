import { existsSync } from "node:fs";
import { join } from "node:path";
import * as assert from "uvu/assert";
import type {
  LevelDbConfigContext,
  LevelDbOptions,
  ReadOnlyKeyValueStore,
  ReadOnlySessionStore,
  ReadOnlyTimestampedWindowStore,
  ReadOnlyWindowStore,
  StoreSpec,
} from "../../../../kernel/contracts/streams/stores";
import { changelogTopic, DEFAULT_LEVELDB_OPTIONS, type ChangelogRecord, type TaskState } from "../../../../providers/streams/state";
import { closedChangelogPositions } from "../../../../providers/streams/state/task-state";
import { collect, jsonSerde, keyValueSpec, stateSuite, stringSerde } from "./state-fixture";

const { test, dir } = stateSuite("task state");

const countsOf = async (state: TaskState) =>
  collect((state.readOnly("counts").store as ReadOnlyKeyValueStore<string, number>).all());

test("a commit stores data and both positions together; closing without one keeps neither", async () => {
  const first = await dir.open([keyValueSpec()]);
  first.keyValueStore<string, number>("counts").put("a", 1);
  await first.commit({ inputPositions: { "words:0": "10" }, changelogPositions: { counts: "0" } });
  first.keyValueStore<string, number>("counts").put("a", 2);
  first.keyValueStore<string, number>("counts").put("b", 1);
  await first.close(); // as if killed before committing

  const second = await dir.open([keyValueSpec()]);
  assert.equal(second.checkpoint(), { inputPositions: { "words:0": "10" }, changelogPositions: { counts: "0" }, changelogWriters: {} });
  assert.equal(await countsOf(second), [{ key: "a", value: 1 }]);
  assert.is(second.keyValueStore<string, number>("counts").get("b"), undefined);
});

test("a closed state leaves its changelog positions readable without opening it; open, or with in-memory stores, it leaves none", async () => {
  const first = await dir.open([keyValueSpec()]);
  assert.is(closedChangelogPositions(dir.path, "app", "0_0"), undefined);
  first.keyValueStore<string, number>("counts").put("a", 1);
  await first.commit({ changelogPositions: { counts: "41" } });
  assert.is(closedChangelogPositions(dir.path, "app", "0_0"), undefined, "not while it is open");
  await first.close();
  assert.equal(closedChangelogPositions(dir.path, "app", "0_0"), new Map([["counts", 41]]));
  const second = await dir.open([keyValueSpec()]);
  assert.is(closedChangelogPositions(dir.path, "app", "0_0"), undefined, "reopened, its state may move on (or be lost in a crash)");
  await second.close();
  const inMemory = await dir.open([{ ...keyValueSpec(), inMemory: true }]);
  await inMemory.close();
  assert.is(closedChangelogPositions(dir.path, "app", "0_0"), undefined, "in-memory contents do not outlive the process");
});

test("reopening returns the checkpoint, the data and the entry counts", async () => {
  const first = await dir.open([keyValueSpec()]);
  const counts = first.keyValueStore<string, number>("counts");
  for (let i = 0; i < 50; i++) counts.put(`k${i}`, i);
  await first.commit({ inputPositions: { "words:0": "50", "words:3": "7" } });
  await first.commit({ inputPositions: { "words:0": "51" }, changelogPositions: { counts: "49" }, changelogWriters: { counts: "17" } });
  await first.close();

  const second = await dir.open([keyValueSpec()]);
  assert.equal(second.checkpoint(), { inputPositions: { "words:0": "51", "words:3": "7" }, changelogPositions: { counts: "49" }, changelogWriters: { counts: "17" } });
  assert.is(second.keyValueStore<string, number>("counts").get("k42"), 42);
  assert.is(await (second.readOnly("counts").store as ReadOnlyKeyValueStore<string, number>).approximateNumEntries(), 50);
});

test("writes made while a commit is in flight belong to the next commit; commits do not overlap", async () => {
  const state = await dir.open([keyValueSpec()]);
  const counts = state.keyValueStore<string, number>("counts");
  counts.put("a", 1);
  const committing = state.commit({ inputPositions: { "t:0": "1" } });
  counts.put("b", 2);
  assert.is(counts.get("a"), 1, "reads see the layer being committed");
  let refused: unknown;
  await state.commit().catch((error) => (refused = error));
  assert.match(String(refused), /while a commit is in progress/);
  await committing;
  assert.equal(await countsOf(state), [{ key: "a", value: 1 }]);
  assert.is(state.uncommittedWrites(), 1);
  await state.commit({ inputPositions: { "t:0": "2" } });
  assert.equal(await countsOf(state), [{ key: "a", value: 1 }, { key: "b", value: 2 }]);
});

const allTypes = (): StoreSpec[] => [
  keyValueSpec("counts"),
  { name: "latest", type: "timestamped_key_value", keySerde: stringSerde, valueSerde: jsonSerde<number>() },
  { name: "views", type: "window", keySerde: stringSerde, valueSerde: jsonSerde<number>(), windowSizeMs: 100, retentionMs: 1000 },
  { name: "tviews", type: "timestamped_window", keySerde: stringSerde, valueSerde: jsonSerde<number>(), windowSizeMs: 100, retentionMs: 1000 },
  { name: "sessions", type: "session", keySerde: stringSerde, valueSerde: jsonSerde<number>(), retentionMs: 1000 },
];

/** Everything every store holds, as queries see it. */
async function contents(state: TaskState): Promise<unknown> {
  const kv = (name: string) => collect((state.readOnly(name).store as ReadOnlyKeyValueStore<string, unknown>).all());
  return {
    counts: await kv("counts"),
    latest: await kv("latest"),
    views: await collect((state.readOnly("views").store as ReadOnlyWindowStore<string, number>).fetchAll(-1e12, 1e12)),
    tviews: await collect((state.readOnly("tviews").store as ReadOnlyTimestampedWindowStore<string, number>).fetchAll(-1e12, 1e12)),
    sessions: await collect((state.readOnly("sessions").store as ReadOnlySessionStore<string, number>).fetchKeyRange(undefined, undefined)),
    entries: (await state.stats()).map((stats) => [stats.name, stats.entries]),
  };
}

test("restoreBatch rebuilds identical contents from the drained changelog in a fresh directory", async () => {
  let now = 0;
  const source = await dir.open(allTypes(), { currentTimestamp: () => now });
  const changelog: ChangelogRecord[] = [];
  for (let step = 0; step < 400; step++) {
    now = step * 10;
    const key = `k${step % 7}`;
    const counts = source.keyValueStore<string, number>("counts");
    counts.put(key, (counts.get(key) ?? 0) + 1);
    if (step % 11 === 0) counts.delete(`k${(step + 3) % 7}`);
    source.timestampedKeyValueStore<string, number>("latest").put(key, step, now);
    const start = now - (now % 100);
    const views = source.windowStore<string, number>("views");
    views.put(key, (views.fetch(key, start) ?? 0) + 1, start);
    source.timestampedWindowStore<string, number>("tviews").put(key, step, start, now);
    const sessions = source.sessionStore<string, number>("sessions");
    const merged = sessions.findSessions(key, now - 60, now + 60);
    for (const session of merged) sessions.remove({ key, start: session.windowStart, end: session.windowEnd });
    const startAt = Math.min(now, ...merged.map((session) => session.windowStart));
    sessions.put({ key, start: startAt, end: now }, merged.reduce((sum, session) => sum + session.value, 1));
    if (step % 50 === 49) {
      changelog.push(...source.drainChangelog());
      await source.commit({ inputPositions: { "in:0": String(step + 1) } });
    }
  }

  const restored = await dir.open(allTypes(), { taskId: "restored" });
  assert.equal(restored.checkpoint().changelogPositions, {});
  for (const spec of allTypes()) {
    const records = changelog.filter((record) => record.store === spec.name);
    for (let offset = 0; offset < records.length; offset += 97) {
      const batch = records.slice(offset, offset + 97);
      await restored.restoreBatch(spec.name, batch, String(offset + batch.length - 1));
    }
    assert.is(restored.checkpoint().changelogPositions[spec.name], String(records.length - 1));
  }
  assert.equal(restored.drainChangelog(), [], "restoring emits no changelog records");
  await restored.commit(); // a commit after restore also deletes windows the replay left behind
  const expected = await contents(source);
  assert.equal(await contents(restored), expected);
  assert.ok((expected as { sessions: unknown[] }).sessions.length > 0);
});

test("a store with logging disabled writes no changelog records; the logged stores beside it do, and both commit their data", async () => {
  const state = await dir.open([keyValueSpec("logged"), { ...keyValueSpec("unlogged"), logging: false }]);
  state.keyValueStore<string, number>("unlogged").put("a", 1);
  state.keyValueStore<string, number>("logged").put("a", 2);
  state.flushCache();
  assert.equal(state.drainChangelog().map((record) => record.store), ["logged"]);
  await state.commit({ inputPositions: { "in:0": "1" } });
  assert.is(state.keyValueStore<string, number>("unlogged").get("a"), 1);
});

test("restoreBatch refuses to run over uncommitted writes", async () => {
  const state = await dir.open([keyValueSpec()]);
  state.keyValueStore<string, number>("counts").put("a", 1);
  let refused: unknown;
  await state.restoreBatch("counts", [], "0").catch((error) => (refused = error));
  assert.match(String(refused), /without uncommitted writes/);
});

test("the config setter tunes the LevelDB options before the database opens", async () => {
  const calls: Array<{ options: LevelDbOptions; context: LevelDbConfigContext }> = [];
  const setter = (options: LevelDbOptions, context: LevelDbConfigContext) => {
    calls.push({ options: { ...options }, context });
    options.writeBufferSize = 16 * 1024 * 1024;
  };
  const state = await dir.open([keyValueSpec("a"), keyValueSpec("b")], { configSetter: setter, taskId: "1_2" });
  assert.equal(calls, [{ options: { ...DEFAULT_LEVELDB_OPTIONS }, context: { applicationId: "app", taskId: "1_2", storeNames: ["a", "b"] } }]);
  state.keyValueStore<string, number>("a").put("x", 1);
  await state.commit();

  let refused: unknown;
  await dir
    .open([keyValueSpec()], { taskId: "bad", configSetter: () => { throw new Error("bad tuning"); } })
    .catch((error) => (refused = error));
  assert.match(String(refused), /bad tuning/);
});

test("destroy deletes the task's directory; the state dir layout is <stateDir>/<applicationId>/<taskId>", async () => {
  const state = await dir.open([keyValueSpec()], { taskId: "2_5" });
  assert.is(state.directory, join(dir.path, "app", "2_5"));
  assert.ok(existsSync(state.directory));
  await state.destroy();
  assert.not.ok(existsSync(state.directory));
  assert.throws(() => state.keyValueStore("counts").get("a"));
});

test("stats give entries, approximate size and uncommitted writes per store", async () => {
  const state = await dir.open([keyValueSpec()]);
  const counts = state.keyValueStore<string, number>("counts");
  for (let i = 0; i < 2000; i++) counts.put(`key-${i}`, i);
  assert.equal((await state.stats())[0], { name: "counts", type: "key_value", entries: 0, approximateSizeBytes: 0, uncommittedWrites: 2000 });
  await state.commit();
  const [stats] = await state.stats();
  assert.is(stats.entries, 2000);
  assert.is(stats.uncommittedWrites, 0);
  assert.ok(stats.approximateSizeBytes >= 0);
  assert.is(changelogTopic("wordcount", "counts"), "wordcount-counts-changelog");
});

test("a task opened while another stream thread of the process still has it open waits for that one to close it", async () => {
  // A task moving between two threads of one instance: the new owner opens it while the old one is closing it.
  const owner = await dir.open([keyValueSpec()]);
  owner.keyValueStore<string, number>("counts").put("a", 1);
  await owner.commit({ inputPositions: { "words:0": "1" }, changelogPositions: { counts: "0" } });
  let opened = false;
  const next = dir.open([keyValueSpec()]).then((state) => {
    opened = true;
    return state;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.not.ok(opened, "opened while the owner still holds it");
  await owner.close();
  const taker = await next;
  assert.equal(await countsOf(taker), [{ key: "a", value: 1 }]);
});

test.run();
