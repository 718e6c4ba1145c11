/**
 * State stores of the streams runtime, on classic-level: one LevelDB database per task at
 * `<stateDir>/<applicationId>/<taskId>/`, holding all of the task's stores and its checkpoint.
 *
 *   const state = await openTaskState({ stateDir, applicationId, taskId, stores: StoreSpec[], configSetter?,
 *                                       currentTimestamp?, logger? });
 *
 * Processing (synchronous, per fetched batch):
 *   state.keyValueStore<K, V>(name) / timestampedKeyValueStore / windowStore / timestampedWindowStore /
 *   sessionStore (or state.store(name), narrowed by `type`) — reads see this task's uncommitted writes first,
 *   then a bounded cache of committed values (`cleanCacheEntries`, default 50,000), then LevelDB (getSync);
 *   writes go to a write-back cache and each also yields a changelog record, kept until drained (none for a store
 *   with `logging: false`). A store with a `bytesStoreSupplier` keeps its data in the user's store instead (see
 *   supplied-key-value-store, supplied-windowed-store), which is told of each commit and of closing.
 * After the fetch's batches (see kafka/processing/commit-sequence):
 *   const records = state.drainChangelog();      // ChangelogRecord { store, key, value | null, timestamp }
 *   produce each to changelogTopic(applicationId, record.store), partition = the task's partition;
 *   await state.commit({ inputPositions: { "topic:partition": nextOffset }, changelogPositions: { store: lastOffset } });
 *   — the cached writes, both positions and the deletion of expired windows/sessions go in ONE db.batch(),
 *   so a restarted instance with intact state resumes exactly after what its stores contain. Offsets are
 *   decimal strings, as kafkajs gives them. One commit at a time; writes made during a commit go to the next.
 * Restore (before processing):
 *   state.checkpoint() → { inputPositions, changelogPositions } as last committed; a store without a changelog
 *   position restores from offset 0, otherwise from position + 1, calling
 *   await state.restoreBatch(store, records: RestoreRecord[], lastOffset) per fetched batch (atomic too).
 * Queries: state.readOnly(name) → { type, store } with async reads of COMMITTED data only (at most one fetch
 *   behind processing); ranges are AsyncIterables streamed from LevelDB iterators, in the key serde's
 *   byte order, honouring `limit`.
 * Lifecycle and figures: state.stats() (entries, approximate size, uncommitted writes per store), close()
 *   (uncommitted writes are dropped, as a crash would), destroy() (close and delete the task's directory).
 *
 * `leveldb.config.setter` is passed as a resolved function (options, { applicationId, taskId, storeNames })
 * that edits the open options in place (cacheSize, writeBufferSize, blockSize, maxOpenFiles, compression, ...).
 * Window, timestamped_window and session stores drop entries whose end is older than the store's stream time
 * (latest window start / session end written) minus `retentionMs` (default one day).
 */

export { openTaskState, TaskState, DEFAULT_LEVELDB_OPTIONS } from "./task-state";
export type { TaskStateOptions, RestoreRecord, CommitPositions, StateLogger } from "./task-state";
export type { ChangelogRecord } from "./store-context";
export type { Checkpoint } from "./checkpoint";
export { DEFAULT_CLEAN_CACHE_ENTRIES } from "./write-cache";
export { DEFAULT_RETENTION_MS } from "./store-openers";

/** The changelog topic of a store: `<applicationId>-<store>-changelog`. */
export function changelogTopic(applicationId: string, storeName: string): string {
  return `${applicationId}-${storeName}-changelog`;
}
