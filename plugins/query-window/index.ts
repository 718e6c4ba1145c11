/**
 * Queries of window and timestamped_window stores: fetch, fetch_key_range, fetch_time_range, fetch_all. One
 * engine answers both types (same queries and parameters; the timestamped store adds `timestamp`).
 */
import {
  concatPartitions,
  type QueryDefinition,
  type QueryEngine,
  type QueryRecord,
  type RangeOptions,
  type ReadOnlyStore,
  type ReadOnlyWindowStoreOf,
  type StoreType,
  type WindowedEntry,
} from "sluice";

type WindowEntry = WindowedEntry<unknown, unknown> & { timestamp?: number };
type WindowSource = ReadOnlyWindowStoreOf<unknown, unknown, WindowEntry>;

function sources(stores: readonly ReadOnlyStore[]): WindowSource[] {
  return stores.map((entry) => {
    if (entry.type !== "window" && entry.type !== "timestamped_window") {
      throw new Error(`the window query engine cannot read a ${entry.type} store`);
    }
    return entry.store;
  });
}

function windowRecord(entry: WindowEntry): QueryRecord {
  const record: QueryRecord = { key: { key: entry.key, window_start: entry.windowStart, window_end: entry.windowEnd }, value: entry.value };
  if (entry.timestamp !== undefined) record.timestamp = entry.timestamp;
  return record;
}

/** A query that scans every given partition with one store call. */
function scanning(
  name: string,
  parameters: QueryDefinition["parameters"],
  ordered: QueryDefinition["ordered"],
  scan: (store: WindowSource, args: Record<string, unknown>, options: RangeOptions) => AsyncIterable<WindowEntry>,
  routingKey?: string,
): QueryDefinition {
  return {
    name,
    parameters,
    ordered,
    routingKey,
    execute: (stores, args, limit) => concatPartitions(sources(stores), (store, remaining) => scan(store, args, { limit: remaining }), windowRecord, limit),
  };
}

const time = (args: Record<string, unknown>, name: string) => args[name] as number;

// `fetch` reads the one window starting at `time` through a time range, which also yields its end.
const fetch = scanning("fetch", [{ name: "key", kind: "key" }, { name: "time", kind: "time" }], undefined,
  (store, args, options) => store.fetchTimeRange(args.key, time(args, "time"), time(args, "time"), options), "key");

const fetchKeyRange = scanning(
  "fetch_key_range",
  [{ name: "key_from", kind: "key" }, { name: "key_to", kind: "key" }, { name: "time_from", kind: "time" }, { name: "time_to", kind: "time" }],
  [["key_from", "key_to"], ["time_from", "time_to"]],
  (store, args, options) => store.fetchKeyRange(args.key_from, args.key_to, time(args, "time_from"), time(args, "time_to"), options),
);

const fetchTimeRange = scanning(
  "fetch_time_range",
  [{ name: "key", kind: "key" }, { name: "time_from", kind: "time" }, { name: "time_to", kind: "time" }],
  [["time_from", "time_to"]],
  (store, args, options) => store.fetchTimeRange(args.key, time(args, "time_from"), time(args, "time_to"), options),
);

const fetchAll = scanning(
  "fetch_all",
  [{ name: "time_from", kind: "time" }, { name: "time_to", kind: "time" }],
  [["time_from", "time_to"]],
  (store, args, options) => store.fetchAll(time(args, "time_from"), time(args, "time_to"), options),
);

export class WindowQueryEngine implements QueryEngine {
  readonly storeTypes: readonly StoreType[] = ["window", "timestamped_window"];
  readonly queries: readonly QueryDefinition[] = [fetch, fetchKeyRange, fetchTimeRange, fetchAll];
}
