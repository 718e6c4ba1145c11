/**
 * Creates, grows and deletes topics for CreateTopics, CreatePartitions, DeleteTopics and Metadata's auto-creation,
 * so that two requests racing to auto-create one topic both see it created once, and keeps the broker within its
 * partition limit (each partition holds open files): past it, creating and growing fail with POLICY_VIOLATION, as
 * Kafka answers for partitions a request may not add.
 */
import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import type { LogStore, TopicSettings } from "../storage/log-store";

export interface TopicDefaults {
  numPartitions: number;
  retentionMs: number | null;
  retentionBytes: number | null;
  /** Partitions the broker keeps at most, all topics together; null: unbounded. */
  maxPartitions: number | null;
}

const MAX_TOPIC_NAME_LENGTH = 249;
const LEGAL_TOPIC_NAME = /^[a-zA-Z0-9._-]+$/;

export function isValidTopicName(name: string): boolean {
  return name.length <= MAX_TOPIC_NAME_LENGTH && LEGAL_TOPIC_NAME.test(name) && name !== "." && name !== "..";
}

export class TopicAdmin {
  private readonly creating = new Map<string, Promise<void>>();
  /** Partitions of creations and growths under way, counted against the limit before the store has them. */
  private reserved = 0;

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
    this.checkRoomFor(full.partitions);
    if (validateOnly) return;
    const creation = this.withReserved(full.partitions, () => this.store.createTopic(name, full));
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
    this.checkRoomFor(count - settings.partitions);
    if (!validateOnly) await this.withReserved(count - settings.partitions, () => this.store.addPartitions(name, count));
  }

  private checkRoomFor(added: number): void {
    const limit = this.defaults.maxPartitions;
    if (limit === null) return;
    let kept = this.reserved;
    for (const { partitions } of this.store.topics().values()) kept += partitions;
    if (kept + added > limit) {
      throw new ApiError(ErrorCode.POLICY_VIOLATION, `the broker keeps ${kept} partitions; ${added} more would pass its limit of ${limit} (broker.max.partitions)`);
    }
  }

  private async withReserved(partitions: number, change: () => Promise<void>): Promise<void> {
    this.reserved += partitions;
    try {
      await change();
    } finally {
      this.reserved -= partitions;
    }
  }

  /** Rejects with UNKNOWN_TOPIC_OR_PARTITION when there is no such topic. */
  async delete(name: string): Promise<void> {
    await this.store.deleteTopic(name);
    await this.store.offsets.deleteTopic(name);
  }
}
