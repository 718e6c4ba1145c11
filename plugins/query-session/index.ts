/** Queries of session stores: fetch (every session of a key) and fetch_key_range. */
import { concatPartitions, type QueryDefinition, type QueryEngine, type QueryRecord, type ReadOnlySessionStore, type ReadOnlyStore, type StoreType, type WindowedEntry } from "sluice";

type SessionSource = ReadOnlySessionStore<unknown, unknown>;

function sources(stores: readonly ReadOnlyStore[]): SessionSource[] {
  return stores.map((entry) => {
    if (entry.type !== "session") throw new Error(`the session query engine cannot read a ${entry.type} store`);
    return entry.store;
  });
}

const sessionRecord = (session: WindowedEntry<unknown, unknown>): QueryRecord => ({
  key: { key: session.key, window_start: session.windowStart, window_end: session.windowEnd },
  value: session.value,
});

const fetch: QueryDefinition = {
  name: "fetch",
  parameters: [{ name: "key", kind: "key" }],
  routingKey: "key",
  execute: (stores, { key }, limit) => concatPartitions(sources(stores), (store, remaining) => store.fetch(key, { limit: remaining }), sessionRecord, limit),
};

const fetchKeyRange: QueryDefinition = {
  name: "fetch_key_range",
  parameters: [
    { name: "key_from", kind: "key" },
    { name: "key_to", kind: "key" },
  ],
  ordered: [["key_from", "key_to"]],
  execute: (stores, { key_from, key_to }, limit) =>
    concatPartitions(sources(stores), (store, remaining) => store.fetchKeyRange(key_from, key_to, { limit: remaining }), sessionRecord, limit),
};

export class SessionQueryEngine implements QueryEngine {
  readonly storeTypes: readonly StoreType[] = ["session"];
  readonly queries: readonly QueryDefinition[] = [fetch, fetchKeyRange];
}
