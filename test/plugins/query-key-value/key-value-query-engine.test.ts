import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { QueryDefinition } from "../../../kernel/contracts/query-engine";
import { answerRecords } from "../query-engines/answer-records";
import type { KeyValue, ReadOnlyKeyValueStore, ReadOnlyStore } from "../../../kernel/contracts/streams/stores";
import { KeyValueQueryEngine } from "../../../plugins/query-key-value";

const test = suite("key-value query engine");

/** A sorted in-memory partition that counts the entries its scans hand out. */
function partition(entries: Record<string, unknown>) {
  const sorted = Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : 1));
  const counters = { read: 0 };
  async function* scan(from: string | undefined, to: string | undefined, limit: number | undefined): AsyncIterable<KeyValue<unknown, unknown>> {
    let given = 0;
    for (const [key, value] of sorted) {
      if ((from !== undefined && key < from) || (to !== undefined && key > to)) continue;
      if (limit !== undefined && given >= limit) return;
      counters.read++;
      given++;
      yield { key, value };
    }
  }
  const store: ReadOnlyKeyValueStore<unknown, unknown> = {
    get: async (key) => entries[key as string],
    range: (from, to, options) => scan(from as string | undefined, to as string | undefined, options?.limit),
    all: (options) => scan(undefined, undefined, options?.limit),
    approximateNumEntries: async () => sorted.length,
  };
  return { store, counters };
}

const engine = new KeyValueQueryEngine();
const query = (name: string) => engine.queries.find((definition) => definition.name === name) as QueryDefinition;


test("declares both key-value store types and their four queries with their parameters", () => {
  assert.equal(engine.storeTypes, ["key_value", "timestamped_key_value"]);
  assert.equal(
    engine.queries.map((definition) => [definition.name, definition.parameters.map((parameter) => `${parameter.name}:${parameter.kind}`), definition.routingKey ?? null]),
    [
      ["get", ["key:key"], "key"],
      ["range", ["key_from:key", "key_to:key"], null],
      ["all", [], null],
      ["count", [], null],
    ],
  );
  assert.equal(query("range").ordered, [["key_from", "key_to"]]);
});

test("get looks in every partition given and answers the first value found", async () => {
  const stores: ReadOnlyStore[] = [{ type: "key_value", store: partition({ a: 1 }).store }, { type: "key_value", store: partition({ b: 2 }).store }];
  assert.equal(await answerRecords(query("get").execute(stores, { key: "b" }, undefined)), [{ key: "b", value: 2 }]);
  assert.equal(await answerRecords(query("get").execute(stores, { key: "z" }, undefined)), []);
});

test("a limit stops the scan across partitions: no entry is read past it", async () => {
  const first = partition({ a: 1, b: 2, c: 3 });
  const second = partition({ d: 4, e: 5, f: 6 });
  const stores: ReadOnlyStore[] = [{ type: "key_value", store: first.store }, { type: "key_value", store: second.store }];
  const records = await answerRecords(query("all").execute(stores, {}, 4));
  assert.equal(records.map((record) => record.key), ["a", "b", "c", "d"]);
  assert.is(first.counters.read + second.counters.read, 4);
});

test("range passes its bounds to every partition", async () => {
  const stores: ReadOnlyStore[] = [{ type: "key_value", store: partition({ a: 1, c: 3 }).store }, { type: "key_value", store: partition({ b: 2, d: 4 }).store }];
  const records = await answerRecords(query("range").execute(stores, { key_from: "b", key_to: "c" }, undefined));
  assert.equal(records, [{ key: "c", value: 3 }, { key: "b", value: 2 }]);
});

test("count is one record summing the partitions", async () => {
  const stores: ReadOnlyStore[] = [{ type: "key_value", store: partition({ a: 1, c: 3 }).store }, { type: "key_value", store: partition({ b: 2 }).store }];
  assert.equal(await answerRecords(query("count").execute(stores, {}, undefined)), [{ key: "count", value: 3 }]);
});

test("a timestamped store's records carry the value and its timestamp side by side", async () => {
  const { store } = partition({ s1: { value: { celsius: 21 }, timestamp: 1_000 } });
  const stores = [{ type: "timestamped_key_value", store }] as ReadOnlyStore[];
  assert.equal(await answerRecords(query("get").execute(stores, { key: "s1" }, undefined)), [{ key: "s1", value: { celsius: 21 }, timestamp: 1_000 }]);
  assert.equal(await answerRecords(query("all").execute(stores, {}, undefined)), [{ key: "s1", value: { celsius: 21 }, timestamp: 1_000 }]);
});

test("a store of another family is refused", async () => {
  const stores = [{ type: "session", store: {} }] as ReadOnlyStore[];
  try {
    await answerRecords(query("all").execute(stores, {}, undefined));
    assert.unreachable("a session store was read");
  } catch (error) {
    assert.match((error as Error).message, "cannot read a session store");
  }
});

test.run();
