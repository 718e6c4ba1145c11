/**
 * Creates, grows and deletes topics for CreateTopics, CreatePartitions, DeleteTopics and Metadata's auto-creation,
 * so that two requests racing to auto-create one topic both see it created once.
 */
import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import type { LogStore, TopicSettings } from "../storage/log-store";

export interface TopicDefaults {
  numPartitions: number;
  retentionMs: number | null;
  retentionBytes: number | null;
}

const MAX_TOPIC_NAME_LENGTH = 249;
const LEGAL_TOPIC_NAME = /^[a-zA-Z0-9._-]+$/;

export function isValidTopicName(name: string): boolean {
  return name.length <= MAX_TOPIC_NAME_LENGTH && LEGAL_TOPIC_NAME.test(name) && name !== "." && name !== "..";
}

export class TopicAdmin {
  private readonly creating = new Map<string, Promise<void>>();

  constructor(
    private readonly store: LogStore,
    readonly defaults: TopicDefaults,
  ) {}

  exists(name: string): boolean {
    return this.store.topics().has(name);
  }

  /** Rejects with INVALID_TOPIC_EXCEPTION, INVALID_PARTITIONS or TOPIC_ALREADY_EXISTS; only checks when validateOnly. */
  async create(name: string, settings: Partial<TopicSettings> = {}, validateOnly = false): Promise<void> {
    if (!isValidTopicName(name)) throw new ApiError(ErrorCode.INVALID_TOPIC_EXCEPTION, `illegal topic name "${name}"`);
    const full: TopicSettings = {
      partitions: settings.partitions ?? this.defaults.numPartitions,
      retentionMs: settings.retentionMs === undefined ? this.defaults.retentionMs : settings.retentionMs,
      retentionBytes: settings.retentionBytes === undefined ? this.defaults.retentionBytes : settings.retentionBytes,
      ...(settings.configs === undefined ? {} : { configs: settings.configs }),
    };
    if (!Number.isInteger(full.partitions) || full.partitions < 1) {
      throw new ApiError(ErrorCode.INVALID_PARTITIONS, `a topic needs at least one partition, got ${full.partitions}`);
    }
    if (this.exists(name) || this.creating.has(name)) {
      throw new ApiError(ErrorCode.TOPIC_ALREADY_EXISTS, `topic "${name}" already exists`);
    }
    if (validateOnly) return;
    const creation = this.store.createTopic(name, full);
    this.creating.set(name, creation);
    try {
      await creation;
    } finally {
      this.creating.delete(name);
    }
  }

  /** Creates the topic with the defaults unless it exists; waits for a creation already under way. */
  async ensure(name: string): Promise<void> {
    const underWay = this.creating.get(name);
    if (underWay) return underWay;
    if (this.exists(name)) return;
    await this.create(name);
  }

  /**
   * Grows the topic to `count` partitions; only checks when validateOnly. Rejects with UNKNOWN_TOPIC_OR_PARTITION or
   * INVALID_PARTITIONS (a topic never shrinks).
   */
  async addPartitions(name: string, count: number, validateOnly: boolean): Promise<void> {
    const settings = this.store.topics().get(name);
    if (settings === undefined) throw new ApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, `topic "${name}" does not exist`);
    if (count <= settings.partitions) {
      throw new ApiError(ErrorCode.INVALID_PARTITIONS, `topic "${name}" has ${settings.partitions} partitions: it can grow to more, not to ${count}`);
    }
    if (!validateOnly) await this.store.addPartitions(name, count);
  }

  /** Rejects with UNKNOWN_TOPIC_OR_PARTITION when there is no such topic. */
  async delete(name: string): Promise<void> {
    await this.store.deleteTopic(name);
    await this.store.offsets.deleteTopic(name);
  }
}
