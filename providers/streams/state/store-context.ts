/** What every store of a task shares: the write cache, the record cache, the changelog buffer and the record clock. */

import type { Header } from "../../../kernel/contracts/streams/processor";
import type { RecordCache } from "./record-cache";
import type { WriteCache } from "./write-cache";

/** One store write, to be produced to `<applicationId>-<store>-changelog`. */
export interface ChangelogRecord {
  store: string;
  key: Buffer;
  /** null: a tombstone. */
  value: Buffer | null;
  timestamp: number;
}

export interface StoreContext {
  readonly cache: WriteCache;
  /** The key-value stores' record cache; undefined when `statestore.cache.max.bytes` is 0. */
  readonly records?: RecordCache;
  emit(record: ChangelogRecord): void;
  /** Timestamp of the record being processed, for changelog records of writes that carry none. */
  currentTimestamp(): number;
  /** Headers of the record being processed: a cached update is forwarded with those of the record that made it. */
  currentHeaders(): readonly Header[] | undefined;
}
