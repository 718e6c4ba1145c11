/** Reads a table's value for a key from a query-facing key-value store, timestamped (as DSL tables are) or not. */
import type { ReadOnlyStore } from "../../kernel/contracts/streams/stores";

export async function rowValue(store: ReadOnlyStore | undefined, key: unknown): Promise<unknown> {
  if (store?.type === "key_value") return store.store.get(key);
  if (store?.type === "timestamped_key_value") return (await store.store.get(key))?.value;
  return undefined;
}

/** Every key's value of such a store. */
export async function rowValues(store: ReadOnlyStore): Promise<Map<unknown, unknown>> {
  const values = new Map<unknown, unknown>();
  if (store.type === "key_value") for await (const { key, value } of store.store.all()) values.set(key, value);
  else if (store.type === "timestamped_key_value") for await (const { key, value } of store.store.all()) values.set(key, value.value);
  else throw new Error(`a ${store.type} store holds no table rows`);
  return values;
}
