/** Streams a key range of the task's database (committed data), mapping and filtering each row. */

import type { TaskDatabase } from "./write-cache";

export interface ScanRange {
  gte: Buffer;
  lt?: Buffer;
  lte?: Buffer;
}

/**
 * Yields `pick(key, value)` for each row in the range, skipping undefined, at most `limit` results. The
 * iterator reads ahead a page of entries at a time (one native call and one promise per page), so memory does
 * not grow with the range; leaving the loop early closes it. Written as an iterator object rather than an async
 * generator: an entry already read answers `next()` at once, without resuming a generator per entry.
 */
export function scanRange<T>(
  db: TaskDatabase,
  range: ScanRange,
  pick: (key: Buffer, value: Buffer) => T | undefined,
  limit = Number.POSITIVE_INFINITY,
): AsyncIterableIterator<T> {
  return new PagedScan(db, range, pick, limit);
}

const SCAN_PAGE_SIZE = 256;
const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

class PagedScan<T> implements AsyncIterableIterator<T> {
  private iterator: { nextv(size: number): Promise<[Buffer, Buffer][]>; close(): Promise<void> } | undefined;
  private page: [Buffer, Buffer][] = [];
  private index = 0;
  private yielded = 0;

  constructor(
    private readonly db: TaskDatabase,
    private readonly range: ScanRange,
    private readonly pick: (key: Buffer, value: Buffer) => T | undefined,
    private readonly limit: number,
  ) {}

  [Symbol.asyncIterator](): AsyncIterableIterator<T> {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.yielded >= this.limit) return this.return();
    try {
      while (this.index < this.page.length) {
        const [key, value] = this.page[this.index++];
        const picked = this.pick(key, value);
        if (picked === undefined) continue;
        this.yielded++;
        return Promise.resolve({ done: false, value: picked });
      }
    } catch (error) {
      return this.return().then(() => Promise.reject(error));
    }
    return this.nextPage();
  }

  async return(): Promise<IteratorReturnResult<undefined>> {
    const iterator = this.iterator;
    this.yielded = this.limit;
    this.page = [];
    if (iterator) {
      this.iterator = undefined;
      await iterator.close();
    }
    return DONE;
  }

  private async nextPage(): Promise<IteratorResult<T>> {
    this.iterator ??= this.db.iterator<Buffer, Buffer>({ ...this.range, keyEncoding: "buffer", valueEncoding: "buffer" });
    const page = await this.iterator.nextv(SCAN_PAGE_SIZE);
    if (page.length === 0) return this.return();
    this.page = page;
    this.index = 0;
    return this.next();
  }
}
