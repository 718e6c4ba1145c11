import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { QueryDefinition } from "../../../kernel/contracts/query-engine";
import { answerRecords } from "../query-engines/answer-records";
import type { ReadOnlyStore, TimestampedWindowedEntry } from "../../../kernel/contracts/streams/stores";
import { WindowQueryEngine } from "../../../plugins/query-window";

const test = suite("window query engine");

type Window = TimestampedWindowedEntry<string, number>;

/** An in-memory window partition recording the calls it receives. */
function partition(windows: Window[]) {
  const calls: string[] = [];
  async function* scan(match: (window: Window) => boolean, limit?: number): AsyncIterable<Window> {
    let given = 0;
    for (const window of windows) {
      if (!match(window)) continue;
      if (limit !== undefined && given++ >= limit) return;
      yield window;
    }
  }
  const store = {
    fetch: async () => undefined,
    fetchTimeRange: (key: string, from: number, to: number, options?: { limit?: number }) => {
      calls.push(`fetchTimeRange ${key} ${from} ${to} ${options?.limit}`);
      return scan((w) => w.key === key && w.windowStart >= from && w.windowStart <= to, options?.limit);
    },
    fetchKeyRange: (keyFrom: string, keyTo: string, from: number, to: number, options?: { limit?: number }) => {
      calls.push(`fetchKeyRange ${keyFrom} ${keyTo} ${from} ${to} ${options?.limit}`);
      return scan((w) => w.key >= keyFrom && w.key <= keyTo && w.windowStart >= from && w.windowStart <= to, options?.limit);
    },
    fetchAll: (from: number, to: number, options?: { limit?: number }) => {
      calls.push(`fetchAll ${from} ${to} ${options?.limit}`);
      return scan((w) => w.windowStart >= from && w.windowStart <= to, options?.limit);
    },
    approximateNumEntries: async () => windows.length,
  };
  return { store, calls };
}

const engine = new WindowQueryEngine();
const query = (name: string) => engine.queries.find((definition) => definition.name === name) as QueryDefinition;

const windows: Window[] = [
  { key: "/cart", windowStart: 0, windowEnd: 60_000, value: 1, timestamp: 10 },
  { key: "/home", windowStart: 0, windowEnd: 60_000, value: 2, timestamp: 20 },
  { key: "/home", windowStart: 60_000, windowEnd: 120_000, value: 3, timestamp: 70_000 },
];

test("declares both window store types and the four queries; only fetch is routed by key (docs/api.md#query-result)", () => {
  assert.equal(engine.storeTypes, ["window", "timestamped_window"]);
  assert.equal(engine.queries.map((definition) => [definition.name, definition.routingKey ?? null]), [
    ["fetch", "key"],
    ["fetch_key_range", null],
    ["fetch_time_range", null],
    ["fetch_all", null],
  ]);
  assert.equal(query("fetch_key_range").ordered, [["key_from", "key_to"], ["time_from", "time_to"]]);
});

test("fetch reads the window starting at the time given, with its end", async () => {
  const { store, calls } = partition(windows);
  const records = await answerRecords(query("fetch").execute([{ type: "window", store } as unknown as ReadOnlyStore], { key: "/home", time: 60_000 }, undefined));
  assert.equal(calls, ["fetchTimeRange /home 60000 60000 undefined"]);
  assert.equal(records, [{ key: { key: "/home", window_start: 60_000, window_end: 120_000 }, value: 3, timestamp: 70_000 }]);
});

test("fetch_all and fetch_key_range pass their ranges and what is left of the limit", async () => {
  const { store, calls } = partition(windows);
  const stores = [{ type: "timestamped_window", store }] as unknown as ReadOnlyStore[];
  assert.is((await answerRecords(query("fetch_all").execute(stores, { time_from: 0, time_to: 0 }, 5))).length, 2);
  const ranged = await answerRecords(query("fetch_key_range").execute(stores, { key_from: "/a", key_to: "/d", time_from: 0, time_to: 60_000 }, undefined));
  assert.equal(ranged.map((record) => record.value), [1]);
  assert.equal(calls, ["fetchAll 0 0 5", "fetchKeyRange /a /d 0 60000 undefined"]);
});

test("fetch_time_range answers the key's windows in the range, at most `limit`", async () => {
  const { store } = partition(windows);
  const stores = [{ type: "window", store }] as unknown as ReadOnlyStore[];
  const records = await answerRecords(query("fetch_time_range").execute(stores, { key: "/home", time_from: 0, time_to: 60_000 }, 1));
  assert.equal(records.map((record) => record.value), [2]);
});

test.run();
