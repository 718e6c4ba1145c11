import * as assert from "uvu/assert";
import type { ReadOnlyKeyValueStore } from "../../../../kernel/contracts/streams/stores";
import { CacheBudget } from "../../../../providers/streams/state/record-cache";
import type { TaskState } from "../../../../providers/streams/state";
import { collect, keyValueSpec, stateSuite } from "./state-fixture";

const { test, dir } = stateSuite("the record cache of key_value stores");

interface Flushed {
  key: string;
  value: number | null;
}

/** A task state with a record cache of `maxBytes`, and what its `counts` store forwards as the cache flushes. */
async function cachedCounts(maxBytes = 1 << 20): Promise<{ state: TaskState; flushed: Flushed[]; budget: CacheBudget }> {
  const budget = new CacheBudget(maxBytes);
  const state = await dir.open([keyValueSpec()], { cacheBudget: budget });
  const flushed: Flushed[] = [];
  const store = state.keyValueStore<string, number>("counts") as unknown as { forwardOnFlush(listener: (key: string, value: number | null) => void): boolean };
  assert.ok(store.forwardOnFlush((key, value) => flushed.push({ key, value })), "a store with a cache forwards on flush");
  return { state, flushed, budget };
}

const changelogOf = (state: TaskState) => state.drainChangelog().map(({ key, value }) => ({ key: key.toString(), value: value === null ? null : Number(value.toString()) }));

test("updates of one key fold into one store write, one changelog record and one forward, at the flush; a key put and deleted in between is neither", async () => {
  const { state, flushed } = await cachedCounts();
  const counts = state.keyValueStore<string, number>("counts");
  for (let i = 1; i <= 5; i++) counts.put("apple", i);
  counts.put("pear", 1);
  counts.put("pear", null);
  assert.is(counts.get("apple"), 5, "reads see the folded update");
  assert.is(counts.get("pear"), undefined, "a folded delete reads as absent");
  assert.equal(flushed, [], "nothing forwarded before the flush");
  assert.equal(changelogOf(state), [], "no changelog record before the flush");
  assert.is(state.uncommittedWrites(), 7, "every update counts as a write");

  state.flushCache();
  // As Kafka Streams' caching store: deleting what the store does not hold writes and forwards nothing.
  assert.equal(flushed, [{ key: "apple", value: 5 }]);
  assert.equal(changelogOf(state), [{ key: "apple", value: 5 }]);
  state.flushCache();
  assert.is(flushed.length, 1, "a flush empties the cache");
});

test("a commit flushes the cache: the folded updates are committed, forwarded once, and survive a reopen", async () => {
  const { state, flushed } = await cachedCounts();
  const counts = state.keyValueStore<string, number>("counts");
  counts.put("apple", 1);
  counts.put("apple", 2);
  await state.commit({ inputPositions: { "words:0": "2" } });
  assert.equal(flushed, [{ key: "apple", value: 2 }]);
  assert.equal(changelogOf(state), [{ key: "apple", value: 2 }]);
  await state.close();
  const reopened = await dir.open([keyValueSpec()], { cacheBudget: new CacheBudget(1 << 20) });
  assert.is(reopened.keyValueStore<string, number>("counts").get("apple"), 2);
  assert.equal(reopened.checkpoint().inputPositions, { "words:0": "2" });
});

test("a full cache flushes before the commit: the least recently used keys first, reads and writes both using a key", async () => {
  // Each record costs its row key, its value and 96 bytes: three fit in 400 bytes, a fourth does not.
  const { state, flushed, budget } = await cachedCounts(400);
  const counts = state.keyValueStore<string, number>("counts");
  counts.put("a", 1);
  counts.put("b", 1);
  counts.put("c", 1);
  assert.equal(flushed, [], "three records fit");
  counts.get("a");
  counts.put("d", 1);
  assert.equal(flushed, [{ key: "b", value: 1 }], "b, used least recently, goes first (a was read after it)");
  counts.put("c", 2);
  counts.put("e", 1);
  assert.equal(flushed.slice(1), [{ key: "a", value: 1 }]);
  assert.equal(changelogOf(state), [{ key: "b", value: 1 }, { key: "a", value: 1 }], "evicted updates are written with their changelog records");
  assert.ok(budget.usedBytes <= budget.maxBytes);
  assert.is(counts.get("b"), 1, "an evicted key reads from the store's uncommitted writes");

  await state.commit();
  assert.equal(flushed.slice(2), [{ key: "d", value: 1 }, { key: "c", value: 2 }, { key: "e", value: 1 }], "the rest at the commit, least recently used first");
  assert.is(budget.usedBytes, 0);
});

test("the stores of a task keep their own updates of one key and share one order of eviction", async () => {
  // A record of either store costs its 10-byte row key, a 1-byte value and 96 bytes: three fit in 330 bytes, a fourth does not.
  const budget = new CacheBudget(330);
  const state = await dir.open([keyValueSpec("counts"), keyValueSpec("totals")], { cacheBudget: budget });
  const counts = state.keyValueStore<string, number>("counts");
  const totals = state.keyValueStore<string, number>("totals");
  counts.put("a", 1);
  totals.put("a", 2);
  counts.put("b", 3);
  assert.is(counts.get("a"), 1, "one key, a value per store");
  totals.put("b", 4);
  assert.equal(changelogOf(state), [{ key: "a", value: 2 }], "totals' a, used least recently, goes first");
  assert.is(totals.get("a"), 2, "read back from the uncommitted writes");
  counts.put("a", 5);
  await state.commit();
  assert.equal(
    [counts.get("a"), counts.get("b"), totals.get("a"), totals.get("b")],
    [5, 3, 2, 4],
  );
  assert.is(budget.usedBytes, 0);
});

test("keys of any text fold and reach the store, the changelog and queries as their UTF-8 bytes", async () => {
  const { state, flushed } = await cachedCounts();
  const counts = state.keyValueStore<string, number>("counts");
  const keys = ["apple", "Grüße", "日本", "", "a\u0000b", "Ã©", "é"];
  for (const [index, key] of keys.entries()) for (let i = 0; i <= index; i++) counts.put(key, i + 1);
  assert.equal(keys.map((key) => counts.get(key)), [1, 2, 3, 4, 5, 6, 7]);
  await state.commit();
  assert.equal(flushed, keys.map((key, index) => ({ key, value: index + 1 })));
  assert.equal(
    state.drainChangelog().map(({ key }) => key),
    keys.map((key) => Buffer.from(key, "utf8")),
  );
  const query = state.readOnly("counts").store as ReadOnlyKeyValueStore<string, number>;
  for (const [index, key] of keys.entries()) assert.is(await query.get(key), index + 1, key);
});

test("queries read through the cache and the uncommitted writes: never older than what was processed", async () => {
  const { state } = await cachedCounts(400);
  const counts = state.keyValueStore<string, number>("counts");
  const query = state.readOnly("counts").store as ReadOnlyKeyValueStore<string, number>;
  counts.put("a", 1);
  counts.put("c", 1);
  counts.put("d", 4);
  await state.commit();
  counts.put("a", 2);
  counts.put("b", 7);
  counts.put("d", null);
  assert.is(await query.get("a"), 2, "a folded update");
  assert.is(await query.get("d"), undefined, "a folded delete");
  counts.put("e", 5);
  counts.put("f", 6);
  assert.is(await query.get("a"), 2, "evicted from the cache, read from the writes not yet committed");
  assert.equal(await collect(query.all()), [
    { key: "a", value: 2 },
    { key: "b", value: 7 },
    { key: "c", value: 1 },
    { key: "e", value: 5 },
    { key: "f", value: 6 },
  ]);
  assert.equal(await collect(query.range("b", "e", { limit: 2 })), [
    { key: "b", value: 7 },
    { key: "c", value: 1 },
  ]);
  await state.commit();
  assert.equal((await collect(query.all())).map((entry) => entry.value), [2, 7, 1, 5, 6]);
});

test("a query's reads leave the order of eviction as the processors' use made it", async () => {
  const { state, flushed } = await cachedCounts(400);
  const counts = state.keyValueStore<string, number>("counts");
  const query = state.readOnly("counts").store as ReadOnlyKeyValueStore<string, number>;
  counts.put("a", 1);
  counts.put("b", 1);
  counts.put("c", 1);
  assert.is(await query.get("a"), 1);
  counts.put("d", 1);
  assert.equal(flushed, [{ key: "a", value: 1 }], "a goes first: only processors' reads count as a use");
});

test("with statestore.cache.max.bytes=0 every update goes through at once and queries see committed data", async () => {
  const state = await dir.open([keyValueSpec()], { cacheBudget: new CacheBudget(0) });
  const counts = state.keyValueStore<string, number>("counts");
  const store = counts as unknown as { forwardOnFlush(listener: () => void): boolean };
  assert.not.ok(store.forwardOnFlush(() => undefined));
  counts.put("a", 1);
  counts.put("a", 2);
  assert.equal(changelogOf(state), [{ key: "a", value: 1 }, { key: "a", value: 2 }]);
  assert.is(await (state.readOnly("counts").store as ReadOnlyKeyValueStore<string, number>).get("a"), undefined);
});

test.run();
