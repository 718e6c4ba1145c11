/**
 * How a commit changes each store's entry count: for every data row in the commit's layer, whether it
 * exists before (known to the clean cache, or asked of the database in one hasMany before the batch is
 * written) and after (the layer's value).
 */

import type { CacheLayer, StoreCounters, TaskDatabase, WriteCache } from "./write-cache";

export async function countEntryChanges(db: TaskDatabase, cache: WriteCache, layer: CacheLayer): Promise<Map<StoreCounters, number>> {
  const changes = new Map<StoreCounters, number>();
  const add = (counters: StoreCounters, change: number) => {
    if (change !== 0) changes.set(counters, (changes.get(counters) ?? 0) + change);
  };
  const unknown: Array<{ key: Buffer; after: number; counters: StoreCounters }> = [];
  for (const [id, { key, value, counters }] of layer) {
    if (!counters) continue;
    const after = value === null ? 0 : 1;
    const before = cache.committedPresence(id);
    if (before === undefined) unknown.push({ key, after, counters });
    else add(counters, after - (before ? 1 : 0));
  }
  if (unknown.length === 0) return changes;
  const present = await db.hasMany(unknown.map(({ key }) => key));
  unknown.forEach(({ after, counters }, index) => add(counters, after - (present[index] ? 1 : 0)));
  return changes;
}
