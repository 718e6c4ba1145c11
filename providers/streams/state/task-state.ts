/** One task's state: its classic-level database, its stores, the write cache, changelog buffer and checkpoint. */

import { rm, mkdir, writeFile } from "node:fs/promises";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ClassicLevel } from "classic-level";
import type { Logger } from "../../../kernel/logger";
import type { Header } from "../../../kernel/contracts/streams/processor";
import type {
  KeyValueStore,
  LevelDbConfigSetter,
  LevelDbOptions,
  ProcessorStore,
  ReadOnlyStore,
  SessionStore,
  StoreSpec,
  StoreStats,
  StoreType,
  TimestampedKeyValueStore,
  TimestampedWindowStore,
  VersionedKeyValueStore,
  WindowStore,
} from "../../../kernel/contracts/streams/stores";
import { decodeCheckpoint, encodeCheckpoint, type Checkpoint, type StoredCheckpoint } from "./checkpoint";
import { countEntryChanges } from "./entry-counting";
import { CHECKPOINT_KEY, prefixEnd, storeAreas, type StoreAreas } from "./key-layout";
import type { ChangelogRecord, StoreContext } from "./store-context";
import { openStoreFaces, type StoreFaces } from "./store-openers";
import { RecordCache, type CacheBudget } from "./record-cache";
import { WriteCache, type StoreCounters, type TaskDatabase } from "./write-cache";
import { holdDirectory } from "./directory-locks";

export type StateLogger = Pick<Logger, "debug" | "info" | "warn" | "error">;

export interface TaskStateOptions {
  stateDir: string;
  applicationId: string;
  taskId: string;
  stores: StoreSpec[];
  /** `leveldb.config.setter`, already resolved to a function. */
  configSetter?: LevelDbConfigSetter;
  /** Timestamp of the record being processed, used for changelog records of writes without one. Default: now. */
  currentTimestamp?: () => number;
  /** Headers of the record being processed (see StoreContext). Default: none. */
  currentHeaders?: () => readonly Header[] | undefined;
  logger?: StateLogger;
  /** How many committed or read values stay cached for processors' reads. Default: 50,000. */
  cleanCacheEntries?: number;
  /** The run's record cache bytes (`statestore.cache.max.bytes`); none, or 0 bytes: updates are not folded. */
  cacheBudget?: CacheBudget;
}

/** A changelog record read back from Kafka, to restore a store. */
export interface RestoreRecord {
  key: Buffer;
  /** null: a tombstone. */
  value: Buffer | null;
  timestamp: number;
}

/** What a commit records; each map is merged into the checkpoint (entries not given keep their value). */
export interface CommitPositions {
  inputPositions?: Record<string, string>;
  /** The input positions replace the checkpointed ones instead of being merged into them. */
  replaceInputPositions?: boolean;
  changelogPositions?: Record<string, string>;
  changelogWriters?: Record<string, string>;
}

/** LevelDB's own defaults, spelled out so a config setter sees what it changes. */
export const DEFAULT_LEVELDB_OPTIONS: Readonly<Required<LevelDbOptions>> = {
  cacheSize: 8 * 1024 * 1024,
  writeBufferSize: 4 * 1024 * 1024,
  blockSize: 4096,
  maxOpenFiles: 1000,
  blockRestartInterval: 16,
  maxFileSize: 2 * 1024 * 1024,
  compression: true,
};

interface OpenedStore extends StoreFaces {
  spec: StoreSpec;
  areas: StoreAreas;
  counters: StoreCounters;
}

const silentLogger: StateLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** Where a task's database lives under `state.dir`. */
export function taskStateDirectory(stateDir: string, applicationId: string, taskId: string): string {
  return join(stateDir, applicationId, taskId);
}

/** The ids of the tasks of `applicationId` that have a directory under `state.dir`; none when it has none. */
export function tasksWithState(stateDir: string, applicationId: string): string[] {
  try {
    return readdirSync(join(stateDir, applicationId), { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && TASK_ID.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

const TASK_ID = /^\d+_\d+$/;

/**
 * The file a closed task's state leaves beside its database: the changelog positions of its checkpoint, which a member
 * reports as it joins (see kafka/processing/task-offset-sums) without opening the database, as Kafka Streams reads
 * its .checkpoint files. Removed while the state is open, so a crash leaves none until the next run of the application
 * writes it from the database (recoverClosedChangelogPositions); not written for a task with in-memory stores, whose
 * contents do not outlive the process.
 */
const CLOSED_POSITIONS_FILE = "changelog-positions.json";

/** Store → offset of the last changelog record a closed task's state holds; undefined when it left none. */
export function closedChangelogPositions(stateDir: string, applicationId: string, taskId: string): Map<string, number> | undefined {
  try {
    const positions = JSON.parse(readFileSync(join(taskStateDirectory(stateDir, applicationId, taskId), CLOSED_POSITIONS_FILE), "utf8")) as Record<string, string>;
    return new Map(Object.entries(positions).map(([store, offset]) => [store, Number(offset)]));
  } catch {
    return undefined;
  }
}

/**
 * Writes the closed positions file of a task whose state was left open by a process that died (killed, crashed): from
 * the checkpoint its database holds, which every commit writes atomically with the stores' data, so the file says what
 * a clean close would have said. A run does this for its tasks on disk before it joins its group, since its tasks
 * resume from that checkpoint under either processing.guarantee (see kafka/processing/run-task planRestore). Nothing
 * for a task that has the file, or no database; answers whether it wrote one.
 */
export async function recoverClosedChangelogPositions(stateDir: string, applicationId: string, taskId: string): Promise<boolean> {
  const directory = taskStateDirectory(stateDir, applicationId, taskId);
  const release = await holdDirectory(directory);
  try {
    if (closedChangelogPositions(stateDir, applicationId, taskId) !== undefined) return false;
    const db: TaskDatabase = new ClassicLevel<Buffer, Buffer>(directory, { createIfMissing: false, keyEncoding: "buffer", valueEncoding: "buffer" });
    try {
      await db.open();
    } catch {
      return false;
    }
    try {
      const { changelogPositions } = decodeCheckpoint(await db.get(CHECKPOINT_KEY));
      await writeFile(join(directory, CLOSED_POSITIONS_FILE), JSON.stringify(changelogPositions));
      return true;
    } finally {
      await db.close();
    }
  } finally {
    release();
  }
}

export class TaskState {
  private changelog: ChangelogRecord[] = [];
  private commitInFlight: Promise<void> | undefined;
  private closed = false;
  /** Lets another thread of the process open the task's directory once this state is closed. */
  private releaseDirectory: () => void = () => undefined;

  private constructor(
    readonly directory: string,
    readonly taskId: string,
    private readonly db: TaskDatabase,
    private readonly cache: WriteCache,
    private readonly records: RecordCache | undefined,
    private readonly stores: Map<string, OpenedStore>,
    private saved: StoredCheckpoint,
    private readonly logger: StateLogger,
  ) {}

  static async open(options: TaskStateOptions): Promise<TaskState> {
    const { stateDir, applicationId, taskId, stores: specs } = options;
    const names = specs.map((spec) => spec.name);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) throw new Error(`task ${taskId} declares store ${duplicate} twice`);
    const areas = specs.map((spec) => storeAreas(spec.name));

    const directory = taskStateDirectory(stateDir, applicationId, taskId);
    await mkdir(directory, { recursive: true });
    const levelOptions: LevelDbOptions = { ...DEFAULT_LEVELDB_OPTIONS };
    options.configSetter?.(levelOptions, { applicationId, taskId, storeNames: names });
    const release = await holdDirectory(directory, () => options.logger?.debug("waiting for another stream thread to close the task", { directory }));
    await rm(join(directory, CLOSED_POSITIONS_FILE), { force: true });
    const db: TaskDatabase = new ClassicLevel<Buffer, Buffer>(directory, { ...levelOptions, keyEncoding: "buffer", valueEncoding: "buffer" });
    try {
      await db.open();
    } catch (error) {
      release();
      throw error;
    }
    try {
      const saved = decodeCheckpoint(await db.get(CHECKPOINT_KEY));
      const cache = new WriteCache(db, options.cleanCacheEntries);
      const budget = options.cacheBudget;
      const records = budget !== undefined && budget.maxBytes > 0 ? new RecordCache(budget) : undefined;
      const state = new TaskState(directory, taskId, db, cache, records, new Map(), saved, options.logger ?? silentLogger);
      state.releaseDirectory = release;
      const context: StoreContext = {
        cache,
        records,
        emit: (record) => state.changelog.push(record),
        currentTimestamp: options.currentTimestamp ?? Date.now,
        currentHeaders: options.currentHeaders ?? (() => undefined),
      };
      // A store with logging disabled writes no changelog records.
      const unlogged: StoreContext = { ...context, emit: () => {} };
      specs.forEach((spec, index) => state.addStore(spec, areas[index], spec.logging === false ? unlogged : context));
      for (const { spec, keyValue, windowed } of state.stores.values()) if (spec.rangeable) await (keyValue ?? windowed)?.indexKeys(db);
      state.logger.debug("task state opened", { directory, checkpoint: state.checkpoint() });
      return state;
    } catch (error) {
      await db.close();
      release();
      throw error;
    }
  }

  private addStore(spec: StoreSpec, areas: StoreAreas, context: StoreContext): void {
    const saved = this.saved.stores[spec.name];
    const counters: StoreCounters = { entries: saved?.entries ?? 0, uncommittedWrites: 0 };
    const time = saved?.streamTime ?? Number.MIN_SAFE_INTEGER;
    const faces = openStoreFaces({ spec, db: this.db, context, areas, counters, streamTime: { live: time, committed: time } });
    this.stores.set(spec.name, { spec, areas, counters, ...faces });
  }

  storeNames(): string[] {
    return [...this.stores.keys()];
  }

  spec(name: string): StoreSpec {
    return this.opened(name).spec;
  }

  /** The processor-facing store; narrow it by `type`, or use the typed accessors below. */
  store(name: string): ProcessorStore {
    return this.opened(name).processor;
  }

  keyValueStore<K, V>(name: string): KeyValueStore<K, V> {
    return this.typed(name, "key_value") as KeyValueStore<K, V>;
  }

  timestampedKeyValueStore<K, V>(name: string): TimestampedKeyValueStore<K, V> {
    return this.typed(name, "timestamped_key_value") as TimestampedKeyValueStore<K, V>;
  }

  versionedKeyValueStore<K, V>(name: string): VersionedKeyValueStore<K, V> {
    return this.typed(name, "versioned_key_value") as VersionedKeyValueStore<K, V>;
  }

  windowStore<K, V>(name: string): WindowStore<K, V> {
    return this.typed(name, "window") as WindowStore<K, V>;
  }

  timestampedWindowStore<K, V>(name: string): TimestampedWindowStore<K, V> {
    return this.typed(name, "timestamped_window") as TimestampedWindowStore<K, V>;
  }

  sessionStore<K, V>(name: string): SessionStore<K, V> {
    return this.typed(name, "session") as SessionStore<K, V>;
  }

  /** The query-facing store (committed data only). */
  readOnly(name: string): ReadOnlyStore {
    return this.opened(name).readOnly;
  }

  /**
   * Writes the updates folded in the record cache to their stores and changelogs, and forwards them downstream.
   * A commit does it first; the commit sequence does it before it sends the outputs.
   */
  flushCache(): void {
    this.records?.flush();
  }

  /** The changelog records of the writes since the last drain, in write order. */
  drainChangelog(): ChangelogRecord[] {
    const drained = this.changelog;
    this.changelog = [];
    return drained;
  }

  /** Writes since the last commit began, all stores together. */
  uncommittedWrites(): number {
    return [...this.stores.values()].reduce((sum, store) => sum + store.counters.uncommittedWrites, 0);
  }

  /**
   * Why a store's local data is laid out for another type than the topology's (its table became timestamped, say),
   * or undefined. Such data cannot be read: the task's local state is dropped and restored from the changelogs, whose
   * records are the same for every key-value type. Checkpoints from before types were recorded are taken to hold
   * plain values.
   */
  layoutMismatch(): string | undefined {
    for (const { spec } of this.stores.values()) {
      const saved = this.saved.stores[spec.name];
      if (saved === undefined) continue;
      const recorded = saved.type ?? (spec.type === "timestamped_key_value" ? "key_value" : spec.type);
      if (recorded !== spec.type) return `store '${spec.name}' holds ${recorded} data, the topology declares it ${spec.type}`;
    }
    return undefined;
  }

  /** What the last commit recorded. */
  checkpoint(): Checkpoint {
    return { inputPositions: { ...this.saved.inputPositions }, changelogPositions: { ...this.saved.changelogPositions }, changelogWriters: { ...this.saved.changelogWriters } };
  }

  /**
   * Flushes the record cache, then writes the buffered writes, the positions and the expiry of old
   * windows/sessions in one atomic batch, and clears the write cache. Writes made while it runs belong to the next commit. One commit at a time.
   */
  async commit(positions: CommitPositions = {}): Promise<void> {
    this.assertOpen();
    if (this.commitInFlight) throw new Error(`task ${this.taskId}: commit() called while a commit is in progress`);
    this.commitInFlight = this.writeCommit(positions);
    try {
      await this.commitInFlight;
    } finally {
      this.commitInFlight = undefined;
    }
  }

  /**
   * Applies changelog records of one store (read from its changelog topic, in order) and records
   * `lastOffset` as the store's changelog position, atomically, with the input positions the records are exact at
   * when they are known (the positions replace the checkpointed ones) and the partition's writer at that offset
   * when it is known. Only between commits with nothing buffered.
   */
  async restoreBatch(storeName: string, records: RestoreRecord[], lastOffset: string, inputPositions?: Record<string, string>, writer?: string): Promise<void> {
    this.assertOpen();
    const store = this.opened(storeName);
    if (this.cache.size > 0 || (this.records?.size ?? 0) > 0 || this.commitInFlight) {
      throw new Error(`task ${this.taskId}: restoreBatch(${storeName}) needs a task without uncommitted writes`);
    }
    for (const record of records) store.applyChangelog(record.key, record.value, record.timestamp);
    const changelogWriters = writer === undefined ? undefined : { [storeName]: writer };
    await this.commit({ changelogPositions: { [storeName]: lastOffset }, changelogWriters, inputPositions, replaceInputPositions: inputPositions !== undefined });
    this.logger.debug("store restored from changelog", { store: storeName, records: records.length, lastOffset });
  }

  async stats(): Promise<StoreStats[]> {
    this.assertOpen();
    return Promise.all(
      [...this.stores.values()].map(async ({ spec, areas, counters }) => ({
        name: spec.name,
        type: spec.type,
        entries: counters.entries,
        approximateSizeBytes: await this.db.approximateSize(areas.store, prefixEnd(areas.store)),
        uncommittedWrites: counters.uncommittedWrites,
      })),
    );
  }

  /** Waits for a commit in flight, drops uncommitted writes and closes the database. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.commitInFlight?.catch(() => undefined);
    this.records?.discard();
    this.cache.discard();
    this.changelog = [];
    for (const store of this.stores.values()) store.close?.();
    const persistent = [...this.stores.values()].every(({ spec }) => spec.inMemory !== true);
    if (persistent) await writeFile(join(this.directory, CLOSED_POSITIONS_FILE), JSON.stringify(this.saved.changelogPositions)).catch(() => undefined);
    await this.db.close().finally(this.releaseDirectory);
  }

  /** Closes and deletes the task's directory. */
  async destroy(): Promise<void> {
    await this.close();
    await rm(this.directory, { recursive: true, force: true });
  }

  private async writeCommit(positions: CommitPositions): Promise<void> {
    this.flushCache();
    const layer = this.cache.beginCommit();
    const expiring = [...this.stores.values()].flatMap(({ expiring }) => (expiring ? [expiring] : []));
    const streamTimes = new Map(expiring.map((store) => [store, store.streamTime.live]));
    for (const store of this.stores.values()) store.counters.uncommittedWrites = 0;
    try {
      let expired = 0;
      for (const [store, streamTime] of streamTimes) expired += await store.sweep(this.db, this.cache, layer, streamTime);
      const entryChanges = await countEntryChanges(this.db, this.cache, layer);
      const next = this.nextCheckpoint(positions, entryChanges, streamTimes);
      // The chained form hands each operation straight to LevelDB's batch: markedly faster than an array.
      const batch = this.db.batch();
      for (const { key, value } of layer.values()) {
        if (value === null) batch.del(key);
        else batch.put(key, value);
      }
      batch.put(CHECKPOINT_KEY, encodeCheckpoint(next));
      await batch.write();

      for (const store of this.stores.values()) store.flush?.();
      for (const [counters, change] of entryChanges) counters.entries += change;
      for (const [store, streamTime] of streamTimes) store.streamTime.committed = streamTime;
      this.saved = next;
      this.cache.endCommit();
      if (expired > 0) this.logger.debug("expired windows, sessions and versions deleted", { task: this.taskId, expired });
    } catch (error) {
      this.cache.abortCommit();
      throw error;
    }
  }

  private nextCheckpoint(
    positions: CommitPositions,
    entryChanges: Map<StoreCounters, number>,
    streamTimes: Map<NonNullable<OpenedStore["expiring"]>, number>,
  ): StoredCheckpoint {
    const stores: StoredCheckpoint["stores"] = {};
    for (const { spec, counters, expiring } of this.stores.values()) {
      const streamTime = expiring ? streamTimes.get(expiring) ?? expiring.streamTime.committed : Number.MIN_SAFE_INTEGER;
      stores[spec.name] = { type: spec.type, entries: counters.entries + (entryChanges.get(counters) ?? 0), streamTime };
    }
    return {
      inputPositions: positions.replaceInputPositions ? { ...positions.inputPositions } : { ...this.saved.inputPositions, ...positions.inputPositions },
      changelogPositions: { ...this.saved.changelogPositions, ...positions.changelogPositions },
      changelogWriters: { ...this.saved.changelogWriters, ...positions.changelogWriters },
      stores,
    };
  }

  private opened(name: string): OpenedStore {
    const store = this.stores.get(name);
    if (!store) throw new Error(`task ${this.taskId} has no store ${JSON.stringify(name)} (stores: ${this.storeNames().join(", ")})`);
    return store;
  }

  private typed(name: string, type: StoreType): ProcessorStore {
    const store = this.opened(name);
    if (store.spec.type !== type) throw new Error(`store ${name} is a ${store.spec.type} store, not ${type}`);
    return store.processor;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error(`task ${this.taskId}: state is closed`);
  }
}

export function openTaskState(options: TaskStateOptions): Promise<TaskState> {
  return TaskState.open(options);
}
