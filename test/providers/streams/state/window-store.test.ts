import * as assert from "uvu/assert";
import type { ReadOnlyTimestampedWindowStore, ReadOnlyWindowStore, StoreSpec } from "../../../../kernel/contracts/streams/stores";
import { bytesSerde, collect, jsonSerde, stateSuite, stringSerde } from "./state-fixture";

const { test, dir } = stateSuite("window stores");

const MINUTE = 60_000;
const windowSpec = (retentionMs = 60 * MINUTE): StoreSpec => ({
  name: "views",
  type: "window",
  keySerde: stringSerde,
  valueSerde: jsonSerde<number>(),
  windowSizeMs: MINUTE,
  retentionMs,
});

test("put, fetch and fetchRange read uncommitted and committed windows", async () => {
  const state = await dir.open([windowSpec()]);
  const views = state.windowStore<string, number>("views");
  assert.is(views.windowSizeMs, MINUTE);
  views.put("home", 1, 0);
  views.put("home", 2, MINUTE);
  await state.commit();
  views.put("home", 3, 2 * MINUTE);
  views.put("home", 20, MINUTE);
  views.put("about", 9, MINUTE);
  assert.is(views.fetch("home", MINUTE), 20);
  assert.is(views.fetch("home", 30_000), undefined);
  assert.equal(views.fetchRange("home", MINUTE, 5 * MINUTE), [
    { key: "home", windowStart: MINUTE, windowEnd: 2 * MINUTE, value: 20 },
    { key: "home", windowStart: 2 * MINUTE, windowEnd: 3 * MINUTE, value: 3 },
  ]);
  views.put("home", null, MINUTE);
  assert.equal(views.fetchRange("home", 0, 5 * MINUTE).map((window) => window.windowStart), [0, 2 * MINUTE]);
});

test("queries fetch by key, time range and key range in key byte order", async () => {
  const state = await dir.open([windowSpec()]);
  const views = state.windowStore<string, number>("views");
  for (const key of ["b", "a", "ab", "a\u0000", "c"]) {
    for (let minute = 0; minute < 3; minute++) views.put(key, minute, minute * MINUTE);
  }
  await state.commit();
  const store = state.readOnly("views").store as ReadOnlyWindowStore<string, number>;
  assert.is(await store.fetch("a", MINUTE), 1);
  assert.is(await store.fetch("a", 1), undefined);
  assert.equal(await collect(store.fetchTimeRange("a", MINUTE, 10 * MINUTE)), [
    { key: "a", windowStart: MINUTE, windowEnd: 2 * MINUTE, value: 1 },
    { key: "a", windowStart: 2 * MINUTE, windowEnd: 3 * MINUTE, value: 2 },
  ]);
  const keyRange = await collect(store.fetchKeyRange("a", "ab", 0, MINUTE));
  assert.equal(
    keyRange.map((window) => `${window.key}@${window.windowStart}`),
    ["a@0", `a@${MINUTE}`, "a\u0000@0", `a\u0000@${MINUTE}`, "ab@0", `ab@${MINUTE}`],
  );
  assert.equal((await collect(store.fetchAll(2 * MINUTE, 2 * MINUTE))).map((window) => window.key), ["a", "a\u0000", "ab", "b", "c"]);
  assert.is((await collect(store.fetchAll(0, 10 * MINUTE, { limit: 4 }))).length, 4);
  assert.is(await store.approximateNumEntries(), 15);
});

test("keys whose bytes extend another key's never mix into its windows", async () => {
  const state = await dir.open([{ name: "raw", type: "window", keySerde: bytesSerde, valueSerde: stringSerde, windowSizeMs: 10 }]);
  const raw = state.windowStore<Buffer, string>("raw");
  const short = Buffer.from([1]);
  // A longer key whose extra bytes look like a window start of the short key.
  const long = Buffer.concat([short, Buffer.from([0x80, 0, 0, 0, 0, 0, 0, 5])]);
  raw.put(short, "short", 0);
  raw.put(long, "long", 0);
  raw.put(Buffer.from([1, 0]), "zero", 0);
  assert.equal(raw.fetchRange(short, 0, 100).map((window) => window.value), ["short"]);
  await state.commit();
  const store = state.readOnly("raw").store as ReadOnlyWindowStore<Buffer, string>;
  assert.equal((await collect(store.fetchTimeRange(short, -100, 100))).map((window) => window.value), ["short"]);
  assert.equal((await collect(store.fetchKeyRange(short, short, 0, 100))).map((window) => window.value), ["short"]);
});

test("retention hides expired windows at once and deletes them at the next commit", async () => {
  const state = await dir.open([windowSpec(5 * MINUTE)]);
  const views = state.windowStore<string, number>("views");
  const store = state.readOnly("views").store as ReadOnlyWindowStore<string, number>;
  views.put("old", 1, 0);
  views.put("home", 1, 0);
  views.put("home", 2, MINUTE);
  await state.commit();
  assert.is(await store.approximateNumEntries(), 3);

  views.put("home", 3, 10 * MINUTE); // stream time 10 min: windows ending before 5 min expire
  assert.equal(views.fetchRange("home", 0, 20 * MINUTE).map((window) => window.windowStart), [10 * MINUTE]);
  assert.is(views.fetch("old", 0), undefined);
  views.put("home", 7, 0);
  assert.is(views.fetch("home", 0), undefined, "a write to an expired window is ignored");

  await state.commit();
  assert.is(await store.approximateNumEntries(), 1);
  assert.equal(await collect(store.fetchAll(0, 20 * MINUTE)), [{ key: "home", windowStart: 10 * MINUTE, windowEnd: 11 * MINUTE, value: 3 }]);
  const [stats] = await state.stats();
  assert.is(stats.entries, 1);

  // Reopened with a longer retention, only deleted windows can stay invisible.
  await state.close();
  const reopened = await dir.open([windowSpec(24 * 60 * MINUTE)]);
  const again = reopened.readOnly("views").store as ReadOnlyWindowStore<string, number>;
  assert.equal((await collect(again.fetchAll(0, 20 * MINUTE))).map((window) => `${window.key}@${window.windowStart}`), [`home@${10 * MINUTE}`]);
  assert.equal(reopened.windowStore<string, number>("views").fetchRange("home", 0, 20 * MINUTE).length, 1);
});

test("timestamped window stores return values with their timestamps", async () => {
  const state = await dir.open([
    { name: "tw", type: "timestamped_window", keySerde: stringSerde, valueSerde: jsonSerde<number>(), windowSizeMs: 1000 },
  ]);
  const windows = state.timestampedWindowStore<string, number>("tw");
  windows.put("k", 5, 1000, 1500);
  assert.equal(windows.fetch("k", 1000), { value: 5, timestamp: 1500 });
  assert.equal(windows.fetchRange("k", 0, 2000), [{ key: "k", windowStart: 1000, windowEnd: 2000, value: 5, timestamp: 1500 }]);
  await state.commit();
  const store = state.readOnly("tw").store as ReadOnlyTimestampedWindowStore<string, number>;
  assert.equal(await store.fetch("k", 1000), { value: 5, timestamp: 1500 });
  assert.equal(await collect(store.fetchAll(0, 5000)), [{ key: "k", windowStart: 1000, windowEnd: 2000, value: 5, timestamp: 1500 }]);
});

const joinSpec = (): StoreSpec => ({
  name: "join-side",
  type: "window",
  keySerde: stringSerde,
  valueSerde: stringSerde,
  windowSizeMs: 0,
  retentionMs: 100,
  retainDuplicates: true,
});

test("a window store that retains duplicates keeps every put, in time then arrival order, and skips null puts", async () => {
  const state = await dir.open([joinSpec()]);
  const side = state.windowStore<string, string>("join-side");
  side.put("a", "first", 10);
  side.put("a", "early", 5);
  side.put("a", "second", 10);
  side.put("a", null, 10);
  side.put("b", "other", 10);
  await state.commit();
  side.put("a", "third", 10);
  assert.equal(side.fetchRange("a", 0, 10).map((window) => `${window.windowStart}:${window.value}`), ["5:early", "10:first", "10:second", "10:third"]);
  await state.commit();
  const store = state.readOnly("join-side").store as ReadOnlyWindowStore<string, string>;
  assert.equal((await collect(store.fetchTimeRange("a", 10, 10))).map((window) => window.value), ["first", "second", "third"]);
  assert.equal((await collect(store.fetchAll(0, 100))).length, 5);
});

test("a duplicate put after a reopen and after a restore is numbered after the ones kept, never over them", async () => {
  const first = await dir.open([joinSpec()], { taskId: "0_0" });
  const side = first.windowStore<string, string>("join-side");
  side.put("a", "one", 10);
  side.put("a", "two", 10);
  const changelog = first.drainChangelog();
  await first.commit();
  await first.close();
  const reopened = await dir.open([joinSpec()], { taskId: "0_0" });
  reopened.windowStore<string, string>("join-side").put("a", "three", 10);
  assert.equal(reopened.windowStore<string, string>("join-side").fetchRange("a", 10, 10).map((window) => window.value), ["one", "two", "three"]);

  const restored = await dir.open([joinSpec()], { taskId: "1_0" });
  await restored.restoreBatch("join-side", changelog.map(({ key, value, timestamp }) => ({ key, value, timestamp })), String(changelog.length - 1));
  const again = restored.windowStore<string, string>("join-side");
  again.put("a", "three", 10);
  assert.equal(again.fetchRange("a", 10, 10).map((window) => window.value), ["one", "two", "three"]);
});

test("a window store without a window size is refused", async () => {
  try {
    await dir.open([{ name: "w", type: "window", keySerde: stringSerde, valueSerde: stringSerde }]);
    assert.unreachable("opened");
  } catch (error) {
    assert.match(String(error), /needs a positive windowSizeMs/);
  }
});

test.run();
