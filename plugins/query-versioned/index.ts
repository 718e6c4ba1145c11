/**
 * Queries of versioned_key_value stores (Kafka Streams' VersionedKeyQuery): `get` of a key, the latest version or,
 * with `as_of`, the one valid at that time. Records carry the version's validity.
 */
import type { QueryDefinition, QueryEngine, QueryRecord, ReadOnlyStore, ReadOnlyVersionedKeyValueStore, StoreType } from "sluice";

type VersionedSource = ReadOnlyVersionedKeyValueStore<unknown, unknown>;

function sources(stores: readonly ReadOnlyStore[]): VersionedSource[] {
  return stores.map((entry) => {
    if (entry.type !== "versioned_key_value") throw new Error(`the versioned query engine cannot read a ${entry.type} store`);
    return entry.store;
  });
}

const NO_RECORDS: readonly QueryRecord[] = [];

const get: QueryDefinition = {
  name: "get",
  parameters: [
    { name: "key", kind: "key" },
    { name: "as_of", kind: "time", optional: true },
  ],
  routingKey: "key",
  async execute(stores, { key, as_of }) {
    // Only the key's partition holds it; the others answer nothing.
    for (const store of sources(stores)) {
      const version = await store.get(key, as_of as number | undefined);
      if (version !== undefined) return [{ key, value: version.value, validity: { from: version.timestamp, to: version.validTo ?? null } }];
    }
    return NO_RECORDS;
  },
};

export class VersionedQueryEngine implements QueryEngine {
  readonly storeTypes: readonly StoreType[] = ["versioned_key_value"];
  readonly queries: readonly QueryDefinition[] = [get];
}
