/**
 * The durable LogStore under `dataDir`: `<topic>-<partition>/<20-digit base offset>.log` segments holding
 * batches exactly as on the wire, `topics/<topic>.json` settings, the `committed-offsets.log` journal and the
 * `producer-ids` reservation.
 * Durability is against process death: an append or commit resolves once its write reached the OS. Against power
 * loss only with `flushMessages`: partition logs are then synced every that many records (committed offsets never).
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import type { CommittedOffsetTable } from "./committed-offset-table";
import { FileOffsetJournal } from "./file-offset-journal";
import { openFilePartition, partitionDirName } from "./file-partition-loader";
import type { TopicSettings } from "./log-store";
import { ReadAhead } from "./read-ahead";
import { PartitionedLogStore, type LogStoreBackend, type LogStoreConfig } from "./partitioned-log-store";
import { ProducerIdFile } from "./producer-id-file";
import { silentLogger, type ComponentLogger } from "../../../kernel/logger";
import { TopicSettingsFiles } from "./topic-settings-files";

const OFFSETS_JOURNAL_FILE = "committed-offsets.log";
const PARTITION_DIR = /^(.+)-(\d+)$/;
/** Bytes read ahead for consumers across all partitions, and how long a read nobody takes keeps its room. */
const READ_AHEAD_MAX_BYTES = 16 * 1024 * 1024;
const READ_AHEAD_STALE_MS = 1_000;

class FileBackend implements LogStoreBackend {
  private readonly settingsFiles: TopicSettingsFiles;
  private readonly producerIds: ProducerIdFile;
  private readonly readAhead: ReadAhead;

  constructor(
    private readonly config: LogStoreConfig,
    private readonly logger: ComponentLogger,
  ) {
    this.settingsFiles = new TopicSettingsFiles(config.dataDir, config, logger);
    this.producerIds = new ProducerIdFile(config.dataDir);
    this.readAhead = new ReadAhead(READ_AHEAD_MAX_BYTES, READ_AHEAD_STALE_MS, config.readBuffers);
  }

  reserveProducerIds(count: bigint): Promise<bigint> {
    return this.producerIds.reserve(count);
  }

  async loadTopics(): Promise<Map<string, TopicSettings>> {
    const topics = await this.settingsFiles.loadAll();
    await this.removeOrphanPartitionDirs(topics);
    return topics;
  }

  async openOffsetJournal(table: CommittedOffsetTable): Promise<FileOffsetJournal> {
    await fs.mkdir(this.config.dataDir, { recursive: true });
    return FileOffsetJournal.open(path.join(this.config.dataDir, OFFSETS_JOURNAL_FILE), table, this.logger);
  }

  openPartition: LogStoreBackend["openPartition"] = (topic, partition, settings, context) =>
    openFilePartition(this.config.dataDir, topic, partition, settings, { ...context, readAhead: this.readAhead, readBuffers: this.config.readBuffers });

  saveTopic(name: string, settings: TopicSettings): Promise<void> {
    return this.settingsFiles.save(name, settings);
  }

  forgetTopic(name: string): Promise<void> {
    return this.settingsFiles.remove(name);
  }

  async removeTopicData(name: string, partitions: number): Promise<void> {
    for (let partition = 0; partition < partitions; partition++) {
      await fs.rm(path.join(this.config.dataDir, partitionDirName(name, partition)), { recursive: true, force: true });
    }
  }

  /** Partition directories no topic owns are what a deletion interrupted by a crash left behind. */
  private async removeOrphanPartitionDirs(topics: Map<string, TopicSettings>): Promise<void> {
    for (const entry of await fs.readdir(this.config.dataDir, { withFileTypes: true })) {
      const match = entry.isDirectory() ? PARTITION_DIR.exec(entry.name) : null;
      if (match === null) continue;
      const settings = topics.get(match[1]);
      if (settings !== undefined && Number(match[2]) < settings.partitions) continue;
      this.logger.warn("removing partition directory of a deleted topic", { dir: entry.name });
      await fs.rm(path.join(this.config.dataDir, entry.name), { recursive: true, force: true });
    }
  }
}

export class FileLogStore extends PartitionedLogStore {
  constructor(options: LogStoreConfig) {
    super(options, new FileBackend(options, options.logger ?? silentLogger));
  }
}
