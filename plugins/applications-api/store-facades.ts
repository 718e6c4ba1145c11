/**
 * A store queried as a plainer type than its own (Kafka Streams' ReadOnlyKeyValueStoreFacade and
 * ReadOnlyWindowStoreFacade): a timestamped store answers `key_value` or `window` queries with its values alone, so
 * clients that queried a table before it kept timestamps still can.
 */
import type {
  KeyValue,
  ReadOnlyKeyValueStore,
  ReadOnlyStore,
  ReadOnlyTimestampedWindowStore,
  ReadOnlyWindowStore,
  StoreType,
  TimestampedWindowedEntry,
  ValueAndTimestamp,
  WindowedEntry,
} from "sluice";

/** The store types each type of query may read besides its own. */
const READABLE_AS: Partial<Record<StoreType, StoreType>> = { timestamped_key_value: "key_value", timestamped_window: "window" };

/** Whether a store of `stored` type answers queries of `asked` type. */
export function answersAs(stored: StoreType, asked: StoreType): boolean {
  return stored === asked || READABLE_AS[stored] === asked;
}

/** The store as the query's type reads it. */
export function storeAs(store: ReadOnlyStore, asked: StoreType): ReadOnlyStore {
  if (store.type === "timestamped_key_value" && asked === "key_value") return { type: "key_value", store: valuesOnly(store.store) };
  if (store.type === "timestamped_window" && asked === "window") return { type: "window", store: windowValuesOnly(store.store) };
  return store;
}

function valuesOnly(store: ReadOnlyKeyValueStore<unknown, ValueAndTimestamp<unknown>>): ReadOnlyKeyValueStore<unknown, unknown> {
  const values = async function* (entries: AsyncIterable<KeyValue<unknown, ValueAndTimestamp<unknown>>>) {
    for await (const { key, value } of entries) yield { key, value: value.value };
  };
  return {
    get: (key) => store.get(key).then((found) => found?.value),
    range: (from, to, options) => values(store.range(from, to, options)),
    all: (options) => values(store.all(options)),
    approximateNumEntries: () => store.approximateNumEntries(),
  };
}

function windowValuesOnly(store: ReadOnlyTimestampedWindowStore<unknown, unknown>): ReadOnlyWindowStore<unknown, unknown> {
  const values = async function* (entries: AsyncIterable<TimestampedWindowedEntry<unknown, unknown>>): AsyncIterable<WindowedEntry<unknown, unknown>> {
    for await (const { key, windowStart, windowEnd, value } of entries) yield { key, windowStart, windowEnd, value };
  };
  return {
    fetch: (key, windowStart) => store.fetch(key, windowStart).then((found) => found?.value),
    fetchTimeRange: (key, timeFrom, timeTo, options) => values(store.fetchTimeRange(key, timeFrom, timeTo, options)),
    fetchKeyRange: (keyFrom, keyTo, timeFrom, timeTo, options) => values(store.fetchKeyRange(keyFrom, keyTo, timeFrom, timeTo, options)),
    fetchAll: (timeFrom, timeTo, options) => values(store.fetchAll(timeFrom, timeTo, options)),
    approximateNumEntries: () => store.approximateNumEntries(),
  };
}
