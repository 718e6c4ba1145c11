/**
 * Queries of key_value and timestamped_key_value stores: get, range, all, count. One engine answers both
 * types because their queries and parameters are the same; only the record differs (the timestamped store
 * adds `timestamp`).
 */
import { concatPartitions, type KeyValue, type QueryDefinition, type QueryEngine, type QueryRecord, type ReadOnlyStore, type StoreType, type ValueAndTimestamp } from "sluice";

type KeyValueSource = Extract<ReadOnlyStore, { type: "key_value" | "timestamped_key_value" }>;

function sources(stores: readonly ReadOnlyStore[]): readonly KeyValueSource[] {
  for (const entry of stores) {
    if (entry.type !== "key_value" && entry.type !== "timestamped_key_value") {
      throw new Error(`the key-value query engine cannot read a ${entry.type} store`);
    }
  }
  return stores as readonly KeyValueSource[];
}

function toRecord(source: KeyValueSource, key: unknown, value: unknown): QueryRecord {
  if (source.type === "key_value") return { key, value };
  const stamped = value as ValueAndTimestamp<unknown>;
  return { key, value: stamped.value, timestamp: stamped.timestamp };
}

const entryRecord = (entry: KeyValue<unknown, unknown>, source: KeyValueSource) => toRecord(source, entry.key, entry.value);

const NO_RECORDS: readonly QueryRecord[] = [];

// Point reads and counts answer whole (one promise): no iterator for a one-record answer. A point read is the
// hot path of interactive queries, so it chains reactions instead of paying an async function's frame: the
// partitions are read in turn until one holds the key (only one can).
const get: QueryDefinition = {
  name: "get",
  parameters: [{ name: "key", kind: "key" }],
  routingKey: "key",
  execute(stores, { key }) {
    const candidates = sources(stores);
    const readFrom = (index: number): Promise<readonly QueryRecord[]> => {
      if (index === candidates.length) return Promise.resolve(NO_RECORDS);
      const source = candidates[index];
      return source.store.get(key).then((value: unknown) => (value === undefined ? readFrom(index + 1) : [toRecord(source, key, value)]));
    };
    return readFrom(0);
  },
};

const range: QueryDefinition = {
  name: "range",
  parameters: [
    { name: "key_from", kind: "key" },
    { name: "key_to", kind: "key" },
  ],
  ordered: [["key_from", "key_to"]],
  execute: (stores, { key_from, key_to }, limit) =>
    concatPartitions(sources(stores), (source, remaining) => source.store.range(key_from, key_to, { limit: remaining }), entryRecord, limit),
};

const all: QueryDefinition = {
  name: "all",
  parameters: [],
  execute: (stores, _args, limit) =>
    concatPartitions(sources(stores), (source, remaining) => source.store.all({ limit: remaining }), entryRecord, limit),
};

const count: QueryDefinition = {
  name: "count",
  parameters: [],
  async execute(stores) {
    let total = 0;
    for (const source of sources(stores)) total += await source.store.approximateNumEntries();
    return [{ key: "count", value: total }];
  },
};

export class KeyValueQueryEngine implements QueryEngine {
  readonly storeTypes: readonly StoreType[] = ["key_value", "timestamped_key_value"];
  readonly queries: readonly QueryDefinition[] = [get, range, all, count];
}
