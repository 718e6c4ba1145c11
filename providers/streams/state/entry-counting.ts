/**
 * How a commit changes each store's entry count: for every data row in the commit's layer, whether it
 * exists before (in the database, read before the batch is written) and after (the layer's value).
 */

import type { CacheLayer, StoreCounters, TaskDatabase } from "./write-cache";

export function countEntryChanges(db: TaskDatabase, layer: CacheLayer): Map<StoreCounters, number> {
  const changes = new Map<StoreCounters, number>();
  for (const { key, value, counters } of layer.values()) {
    if (!counters) continue;
    const change = (value === null ? 0 : 1) - (db.getSync(key) === undefined ? 0 : 1);
    if (change !== 0) changes.set(counters, (changes.get(counters) ?? 0) + change);
  }
  return changes;
}
