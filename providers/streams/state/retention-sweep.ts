/**
 * Deletes a window or session store's expired entries during a commit: walks the expiry index up to the
 * cutoff (so the work is proportional to what expired, not to the store's size) and adds to the commit's
 * layer the deletion of each data row and index row, and the trimmed directory of each key.
 */

import { encodeTimes, TIME_BYTES } from "./key-layout";
import { joinSuffixes, parseSuffixes } from "./suffix-directory";
import type { WindowedBytes } from "./windowed-bytes";
import type { CacheLayer, TaskDatabase, WriteCache } from "./write-cache";

/** Returns how many entries expired. */
export async function sweepExpired(db: TaskDatabase, cache: WriteCache, layer: CacheLayer, store: WindowedBytes, streamTime: number): Promise<number> {
  const { expiry } = store.areas;
  const suffixLength = store.layout.length;
  const expiredKeys = new Map<string, Buffer>();
  let expired = 0;
  const upTo = Buffer.concat([expiry, encodeTimes(store.cutoff(streamTime) + 1)]);
  for await (const indexKey of db.keys({ gte: expiry, lt: upTo })) {
    const escapedKey = indexKey.subarray(expiry.length + TIME_BYTES, indexKey.length - suffixLength);
    const dataKey = store.dataKey(escapedKey, indexKey.subarray(indexKey.length - suffixLength));
    layer.set(dataKey.toString("latin1"), { key: dataKey, value: null, counters: store.counters });
    layer.set(indexKey.toString("latin1"), { key: indexKey, value: null });
    expiredKeys.set(escapedKey.toString("latin1"), escapedKey);
    expired++;
  }
  for (const escapedKey of expiredKeys.values()) {
    const directoryKey = store.directoryKey(escapedKey);
    // A directory rewritten since the commit began was trimmed then, against a stream time at least as late.
    if (cache.writtenSinceCommitBegan(directoryKey)) continue;
    const suffixes = parseSuffixes(cache.read(directoryKey), suffixLength);
    const live = suffixes.filter((suffix) => !store.isExpired(suffix, streamTime));
    layer.set(directoryKey.toString("latin1"), { key: directoryKey, value: joinSuffixes(live) });
  }
  return expired;
}
