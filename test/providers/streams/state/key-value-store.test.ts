import * as assert from "uvu/assert";
import type { ReadOnlyKeyValueStore, ValueAndTimestamp } from "../../../../kernel/contracts/streams/stores";
import { collect, jsonSerde, keyValueSpec, stateSuite, stringSerde } from "./state-fixture";

const { test, dir } = stateSuite("key_value stores");

test("put, get, putIfAbsent and delete see the task's uncommitted writes", async () => {
  const state = await dir.open([keyValueSpec()]);
  const counts = state.keyValueStore<string, number>("counts");
  counts.put("apple", 1);
  assert.is(counts.get("apple"), 1);
  assert.is(counts.putIfAbsent("apple", 5), 1);
  assert.is(counts.putIfAbsent("pear", 7), undefined);
  assert.is(counts.get("pear"), 7);
  assert.is(counts.delete("apple"), 1);
  assert.is(counts.get("apple"), undefined);
  counts.put("pear", null);
  assert.is(counts.get("pear"), undefined);
  await state.commit();
  counts.put("plum", 3);
  assert.is(counts.get("plum"), 3, "a cached write over committed data");
  assert.is(counts.get("apple"), undefined);
});

test("queries see committed data only, in key byte order, with ranges and limits", async () => {
  const state = await dir.open([keyValueSpec()]);
  const counts = state.keyValueStore<string, number>("counts");
  const query = state.readOnly("counts");
  assert.is(query.type, "key_value");
  const store = query.store as ReadOnlyKeyValueStore<string, number>;
  for (const [key, value] of [["b", 2], ["a", 1], ["ab", 12], ["c", 3], ["B", 0]] as const) counts.put(key, value);
  assert.is(await store.get("a"), undefined, "not committed yet");
  assert.equal(await collect(store.all()), []);
  await state.commit();

  assert.is(await store.get("a"), 1);
  assert.equal((await collect(store.all())).map((entry) => entry.key), ["B", "a", "ab", "b", "c"]);
  assert.equal(await collect(store.range("a", "b")), [
    { key: "a", value: 1 },
    { key: "ab", value: 12 },
    { key: "b", value: 2 },
  ]);
  assert.equal((await collect(store.range("ab"))).map((entry) => entry.key), ["ab", "b", "c"]);
  assert.equal((await collect(store.range(undefined, "a"))).map((entry) => entry.key), ["B", "a"]);
  assert.equal((await collect(store.all({ limit: 2 }))).map((entry) => entry.key), ["B", "a"]);
  assert.equal(await collect(store.all({ limit: 0 })), []);
  assert.is(await store.approximateNumEntries(), 5);

  counts.delete("c");
  counts.put("a", 100);
  await state.commit();
  assert.is(await store.approximateNumEntries(), 4);
  assert.is(await store.get("a"), 100);
});

test("timestamped key_value stores keep each value's timestamp", async () => {
  const state = await dir.open([{ name: "latest", type: "timestamped_key_value", keySerde: stringSerde, valueSerde: jsonSerde<{ t: number }>() }]);
  const latest = state.timestampedKeyValueStore<string, { t: number }>("latest");
  latest.put("s1", { t: 20 }, 1_700_000_000_123);
  assert.equal(latest.get("s1"), { value: { t: 20 }, timestamp: 1_700_000_000_123 });
  assert.equal(latest.putIfAbsent("s1", { t: 99 }, 5), { value: { t: 20 }, timestamp: 1_700_000_000_123 });
  latest.put("s2", { t: 21 }, 7);
  await state.commit();
  const store = state.readOnly("latest").store as ReadOnlyKeyValueStore<string, ValueAndTimestamp<{ t: number }>>;
  assert.equal(await collect(store.all()), [
    { key: "s1", value: { value: { t: 20 }, timestamp: 1_700_000_000_123 } },
    { key: "s2", value: { value: { t: 21 }, timestamp: 7 } },
  ]);
  assert.equal(latest.delete("s2"), { value: { t: 21 }, timestamp: 7 });
  assert.is(latest.get("s2"), undefined);
});

test("every write yields a changelog record, drained once", async () => {
  let now = 1000;
  const state = await dir.open([keyValueSpec()], { currentTimestamp: () => now });
  const counts = state.keyValueStore<string, number>("counts");
  counts.put("a", 1);
  now = 2000;
  counts.delete("a");
  const records = state.drainChangelog();
  assert.equal(
    records.map((record) => ({ ...record, key: record.key.toString(), value: record.value?.toString() ?? null })),
    [
      { store: "counts", key: "a", value: "1", timestamp: 1000 },
      { store: "counts", key: "a", value: null, timestamp: 2000 },
    ],
  );
  assert.equal(state.drainChangelog(), []);
});

test("reads and entry counts stay exact when the cache of committed values is smaller than the store", async () => {
  const state = await dir.open([keyValueSpec()], { cleanCacheEntries: 8 });
  const counts = state.keyValueStore<string, number>("counts");
  for (let i = 0; i < 100; i++) counts.put(`k${i}`, i);
  await state.commit();
  for (let i = 0; i < 100; i += 2) counts.put(`k${i}`, counts.get(`k${i}`)! + 1000);
  for (let i = 1; i < 100; i += 4) counts.delete(`k${i}`);
  await state.commit();
  for (let i = 100; i < 110; i++) counts.put(`k${i}`, i);
  await state.commit();
  const expected = (i: number) => (i >= 100 ? i : i % 2 === 0 ? i + 1000 : i % 4 === 1 ? undefined : i);
  for (let i = 0; i < 110; i++) assert.is(counts.get(`k${i}`), expected(i), `k${i}`);
  const store = state.readOnly("counts").store as ReadOnlyKeyValueStore<string, number>;
  assert.is(await store.approximateNumEntries(), 110 - 25);
  assert.is((await collect(store.all())).length, 85);
});

test("typed accessors refuse a store of another type or an unknown name", async () => {
  const state = await dir.open([keyValueSpec()]);
  assert.throws(() => state.windowStore("counts"), /key_value store, not window/);
  assert.throws(() => state.keyValueStore("nope"), /no store "nope"/);
});

test.run();
