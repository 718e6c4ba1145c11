/** Streams a key range of the task's database (committed data), mapping and filtering each row. */

import type { TaskDatabase } from "./write-cache";

export interface ScanRange {
  gte: Buffer;
  lt?: Buffer;
  lte?: Buffer;
}

/**
 * Yields `pick(key, value)` for each row in the range, skipping undefined, at most `limit` results. The
 * iterator reads ahead a bounded number of bytes, so memory does not grow with the range; leaving the loop
 * early closes it.
 */
export async function* scanRange<T>(
  db: TaskDatabase,
  range: ScanRange,
  pick: (key: Buffer, value: Buffer) => T | undefined,
  limit = Number.POSITIVE_INFINITY,
): AsyncGenerator<T> {
  if (limit <= 0) return;
  let yielded = 0;
  // Entries are taken a page at a time: one native call and one promise per page instead of per entry.
  const iterator = db.iterator(range);
  try {
    for (;;) {
      const page = await iterator.nextv(SCAN_PAGE_SIZE);
      if (page.length === 0) return;
      for (const [key, value] of page) {
        const picked = pick(key, value);
        if (picked === undefined) continue;
        yield picked;
        if (++yielded >= limit) return;
      }
    }
  } finally {
    await iterator.close();
  }
}

const SCAN_PAGE_SIZE = 256;
