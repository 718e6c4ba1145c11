/**
 * The LogStore both stores share: topics of SegmentedPartitionLogs, committed offsets, retention and
 * append listeners. What differs — where segments, topic settings and the offsets journal live — comes
 * from a LogStoreBackend.
 */
import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import { CommittedOffsetTable } from "./committed-offset-table";
import { JournaledOffsetStore, type OffsetJournal } from "./journaled-offset-store";
import { ProducerIdBlocks } from "./producer-id-blocks";
import type { LogStore, LogStoreOptions, OffsetStore, PartitionLog, TopicSettings } from "./log-store";
import type { PartitionLogContext, SegmentedPartitionLog } from "./segmented-partition-log";
import { silentLogger, type ComponentLogger } from "../../../kernel/logger";
import { assertValidTopicName, resolveTopicSettings } from "./topic-settings-rules";

/** LogStoreOptions plus the optional logger both stores accept. */
export type LogStoreConfig = LogStoreOptions & { logger?: ComponentLogger };

export type PartitionContext = Omit<PartitionLogContext, "storageFactory" | "logStartCheckpoint">;

export interface LogStoreBackend {
  /** Topics persisted earlier (none for memory). */
  loadTopics(): Promise<Map<string, TopicSettings>>;
  openOffsetJournal(table: CommittedOffsetTable): Promise<OffsetJournal & { close(): Promise<void> }>;
  /** Opens (recovering) or creates a partition's log. */
  openPartition(topic: string, partition: number, settings: TopicSettings, context: PartitionContext): Promise<SegmentedPartitionLog>;
  /** Makes the topic exist durably; called after its partitions were created. */
  saveTopic(name: string, settings: TopicSettings): Promise<void>;
  /** Makes the topic gone durably; called before its data is removed. */
  forgetTopic(name: string): Promise<void>;
  /** Removes what is left of the topic's partitions after their logs were deleted. */
  removeTopicData(name: string, partitions: number): Promise<void>;
  /** Makes `count` producer ids taken for good and resolves with the first (see ProducerIdBlocks). */
  reserveProducerIds(count: bigint): Promise<bigint>;
}

type StoreState = "new" | "opening" | "open" | "closed";

export class PartitionedLogStore implements LogStore {
  readonly offsets: OffsetStore;
  protected readonly logger: ComponentLogger;
  private state: StoreState = "new";
  private readonly settingsByTopic = new Map<string, TopicSettings>();
  private readonly logsByTopic = new Map<string, SegmentedPartitionLog[]>();
  private readonly listeners: ((topic: string, partition: number) => void)[] = [];
  private readonly offsetTable = new CommittedOffsetTable();
  private journal?: OffsetJournal & { close(): Promise<void> };
  /** Topic creation, deletion, retention and close run one at a time. */
  private adminTail: Promise<void> = Promise.resolve();
  private readonly producerIds: ProducerIdBlocks;

  constructor(
    private readonly config: LogStoreConfig,
    private readonly backend: LogStoreBackend,
  ) {
    this.logger = config.logger ?? silentLogger;
    const journal: OffsetJournal = { record: (change) => this.openJournal().record(change) };
    this.offsets = new JournaledOffsetStore(this.offsetTable, journal, () => this.assertOpen());
    this.producerIds = new ProducerIdBlocks((count) => backend.reserveProducerIds(count));
  }

  async open(): Promise<void> {
    if (this.state !== "new") throw new Error(`log store cannot be opened: it is ${this.state}`);
    this.state = "opening";
    this.journal = await this.backend.openOffsetJournal(this.offsetTable);
    for (const [name, settings] of await this.backend.loadTopics()) {
      this.settingsByTopic.set(name, settings);
      this.logsByTopic.set(name, await this.openPartitions(name, settings));
    }
    this.state = "open";
    this.logger.debug("log store opened", { topics: this.settingsByTopic.size, dataDir: this.config.dataDir });
  }

  close(): Promise<void> {
    if (this.state === "closed") return Promise.resolve();
    this.state = "closed";
    return this.serializeAdmin(async () => {
      for (const logs of this.logsByTopic.values()) await Promise.all(logs.map((log) => log.close()));
      await this.journal?.close();
    });
  }

  topics(): ReadonlyMap<string, TopicSettings> {
    this.assertOpen();
    return this.settingsByTopic;
  }

  async createTopic(name: string, settings: TopicSettings): Promise<void> {
    this.assertOpen();
    return this.serializeAdmin(async () => {
      this.assertOpen();
      assertValidTopicName(name);
      if (this.settingsByTopic.has(name)) throw new ApiError(ErrorCode.TOPIC_ALREADY_EXISTS, `topic ${name} already exists`);
      const resolved = resolveTopicSettings(settings, this.config);
      const logs = await this.openPartitions(name, resolved);
      await this.backend.saveTopic(name, resolved);
      this.settingsByTopic.set(name, resolved);
      this.logsByTopic.set(name, logs);
      this.logger.debug("topic created", { topic: name, ...resolved });
    });
  }

  async deleteTopic(name: string): Promise<void> {
    this.assertOpen();
    return this.serializeAdmin(async () => {
      this.assertOpen();
      const logs = this.logsByTopic.get(name);
      if (logs === undefined) throw new ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `topic ${name} does not exist`);
      await this.backend.forgetTopic(name);
      this.settingsByTopic.delete(name);
      this.logsByTopic.delete(name);
      await Promise.all(logs.map((log) => log.delete()));
      await this.backend.removeTopicData(name, logs.length);
      await this.offsets.deleteTopic(name);
      this.logger.debug("topic deleted", { topic: name });
    });
  }

  async addPartitions(name: string, count: number): Promise<void> {
    this.assertOpen();
    return this.serializeAdmin(async () => {
      this.assertOpen();
      const settings = this.settingsByTopic.get(name);
      const logs = this.logsByTopic.get(name);
      if (settings === undefined || logs === undefined) throw new ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `topic ${name} does not exist`);
      if (!Number.isInteger(count) || count <= settings.partitions) {
        throw new ApiError(ErrorCode.INVALID_PARTITIONS, `topic ${name} has ${settings.partitions} partitions; it can only grow, so ${count} will not do`);
      }
      const grown = { ...settings, partitions: count };
      const added = await this.openPartitions(name, grown, settings.partitions);
      // Saved after the new partitions exist: a crash in between leaves directories the next open removes.
      await this.backend.saveTopic(name, grown);
      this.settingsByTopic.set(name, grown);
      this.logsByTopic.set(name, [...logs, ...added]);
      this.logger.debug("partitions added", { topic: name, from: settings.partitions, to: count });
    });
  }

  partition(topic: string, partition: number): PartitionLog | undefined {
    this.assertOpen();
    return this.logsByTopic.get(topic)?.[partition];
  }

  async enforceRetention(nowMs: number): Promise<void> {
    this.assertOpen();
    return this.serializeAdmin(async () => {
      const logs = [...this.logsByTopic.values()].flat();
      await Promise.all(logs.map((log) => log.enforceRetention(nowMs)));
    });
  }

  onAppend(listener: (topic: string, partition: number) => void): void {
    this.listeners.push(listener);
  }

  allocateProducerId(): Promise<bigint> {
    this.assertOpen();
    return this.producerIds.allocate();
  }

  /** Opens (or creates) the topic's partitions from `from` on. */
  private async openPartitions(topic: string, settings: TopicSettings, from = 0): Promise<SegmentedPartitionLog[]> {
    const context: PartitionContext = {
      segmentBytes: this.config.segmentBytes,
      flushMessages: this.config.flushMessages ?? null,
      logger: this.logger,
      onAppended: (t, p) => this.notifyAppend(t, p),
    };
    const logs: SegmentedPartitionLog[] = [];
    for (let partition = from; partition < settings.partitions; partition++) {
      logs.push(await this.backend.openPartition(topic, partition, settings, context));
    }
    return logs;
  }

  private notifyAppend(topic: string, partition: number): void {
    for (const listener of this.listeners) {
      try {
        listener(topic, partition);
      } catch (error) {
        this.logger.error("append listener failed", { topic, partition, error: String(error) });
      }
    }
  }

  private openJournal(): OffsetJournal {
    if (this.journal === undefined) throw this.notOpenError();
    return this.journal;
  }

  private serializeAdmin(task: () => Promise<void>): Promise<void> {
    const run = this.adminTail.then(task);
    this.adminTail = run.catch(() => undefined);
    return run;
  }

  private assertOpen(): void {
    if (this.state !== "open") throw this.notOpenError();
  }

  private notOpenError(): ApiError {
    return new ApiError(ErrorCode.NOT_LEADER_OR_FOLLOWER, `the log store is ${this.state === "closed" ? "closed" : "not open"}`);
  }
}
