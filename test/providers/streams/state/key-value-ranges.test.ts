/**
 * Ranges over a rangeable key-value store as processors see it: uncommitted writes, record-cached updates and
 * committed data together, in key byte order, and again after the task is opened anew (the key index rebuilt).
 */
import * as assert from "uvu/assert";
import type { KeyValueIterator, StoreSpec } from "../../../../kernel/contracts/streams/stores";
import { CacheBudget } from "../../../../providers/streams/state/record-cache";
import { jsonSerde, stateSuite, stringSerde } from "./state-fixture";

const { test, dir } = stateSuite("key-value ranges");

const spec = (caching?: boolean): StoreSpec => ({ name: "kv", type: "key_value", keySerde: stringSerde, valueSerde: jsonSerde<number>(), rangeable: true, caching });
const keys = <V>(iterator: KeyValueIterator<string, V>) => [...iterator].map(({ key }) => key);

test("ranges see committed, written and cached updates, deletions and the store's order; the index survives a reopen", async () => {
  const state = await dir.open([spec()], { cacheBudget: new CacheBudget(1 << 20) });
  const store = state.keyValueStore<string, number>("kv");
  store.putAll(["b", "a", "d"].map((key, value) => ({ key, value })));
  await state.commit({});
  store.put("c", 3);
  store.delete("a");
  assert.equal(keys(store.all()), ["b", "c", "d"]);
  assert.equal(keys(store.reverseRange("b", "c")), ["c", "b"]);
  const walking = store.range();
  assert.is(walking.peekNextKey(), "b");
  store.delete("c");
  // A key deleted after the walk began is passed over.
  assert.equal(keys(walking), ["b", "d"]);
  assert.is(store.approximateNumEntries(), 2);
  state.flushCache();
  await state.commit({});
  await state.close();
  const reopened = await dir.open([spec()]);
  const again = reopened.keyValueStore<string, number>("kv");
  assert.equal([...again.all()], [{ key: "b", value: 0 }, { key: "d", value: 2 }]);
  assert.is(again.approximateNumEntries(), 2);
});

test("a timestamped store ranges over values with timestamps; a store that is not rangeable says so", async () => {
  const state = await dir.open([{ ...spec(), type: "timestamped_key_value" }, { name: "plain", type: "key_value", keySerde: stringSerde, valueSerde: stringSerde }]);
  const store = state.timestampedKeyValueStore<string, number>("kv");
  store.putAll([{ key: "x", value: { value: 1, timestamp: 10 } }, { key: "y", value: { value: 2, timestamp: 20 } }]);
  assert.equal([...store.prefixScan("y", stringSerde)], [{ key: "y", value: { value: 2, timestamp: 20 } }]);
  assert.throws(() => state.keyValueStore<string, string>("plain").all(), /keeps no key index/);
});

test("a store with caching off writes through although the run has a record cache", async () => {
  const state = await dir.open([spec(false)], { cacheBudget: new CacheBudget(1 << 20) });
  state.keyValueStore<string, number>("kv").put("k", 1);
  assert.is(state.drainChangelog().length, 1);
  const cached = await dir.open([{ ...spec(true), name: "other" }], { cacheBudget: new CacheBudget(1 << 20), taskId: "1_0" });
  cached.keyValueStore<string, number>("other").put("k", 1);
  assert.is(cached.drainChangelog().length, 0);
});

test.run();
