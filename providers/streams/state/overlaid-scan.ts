/**
 * A key range of the task's database with the writes not yet committed laid over it: what an interactive query
 * of a cached store reads, so that its answer is never older than what the task has processed.
 */

import { scanRange, type ScanRange } from "./level-scan";
import type { TaskDatabase } from "./write-cache";

/** A pending row: its key in the database and its stored value (null: deleted). */
export type PendingRow = readonly [key: Buffer, value: Buffer | null];

export function inScanRange(key: Buffer, range: ScanRange): boolean {
  if (Buffer.compare(key, range.gte) < 0) return false;
  if (range.lt !== undefined) return Buffer.compare(key, range.lt) < 0;
  return range.lte === undefined || Buffer.compare(key, range.lte) <= 0;
}

/**
 * Yields `pick(key, value)` for each row of the range as the database holds it with `pending` applied (sorted by
 * key, one row per key, every key in the range), skipping undefined, at most `limit` results.
 */
export async function* overlaidScan<T>(
  db: TaskDatabase,
  range: ScanRange,
  pending: readonly PendingRow[],
  pick: (key: Buffer, value: Buffer) => T | undefined,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<T> {
  if (limit <= 0) return;
  let next = 0;
  let yielded = 0;
  const rows = scanRange(db, range, (key, value): PendingRow => [key, value]);
  for await (const [key, stored] of rows) {
    let value: Buffer | null = stored;
    for (; next < pending.length; next++) {
      const order = Buffer.compare(pending[next][0], key);
      if (order > 0) break;
      if (order === 0) {
        value = pending[next][1];
        continue;
      }
      const picked = pending[next][1] === null ? undefined : pick(pending[next][0], pending[next][1]!);
      if (picked !== undefined) {
        yield picked;
        if (++yielded >= limit) return;
      }
    }
    const picked = value === null ? undefined : pick(key, value);
    if (picked !== undefined) {
      yield picked;
      if (++yielded >= limit) return;
    }
  }
  for (; next < pending.length; next++) {
    const [key, value] = pending[next];
    const picked = value === null ? undefined : pick(key, value);
    if (picked === undefined) continue;
    yield picked;
    if (++yielded >= limit) return;
  }
}
