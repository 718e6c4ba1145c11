import type { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import type { ReadBuffers } from "./read-buffers";
import type { ConsumerProtocolMember } from "../group/consumer-protocol-group";

/**
 * The broker's storage contract: topics of partitioned logs of Kafka record batches (magic 2),
 * and committed consumer-group offsets. Two implementations: memory (tests) and file (default).
 * Offsets are bigint because Kafka's are int64.
 */

export interface TopicSettings {
  partitions: number;
  /** Batches whose max timestamp is older than this are deleted; null = keep forever. */
  retentionMs: number | null;
  /** A partition is trimmed (oldest segments first) to about this many bytes; null = unbounded. */
  retentionBytes: number | null;
  /** The topic-level configs it was created with that the broker honours, as given (Kafka's topic overrides); absent when none. */
  configs?: Readonly<Record<string, string>>;
  /**
   * Kafka's topic id: a random Uuid given when the topic is made and kept with its settings, so it survives a restart
   * (Metadata v10+ and the consumer group protocol name topics by it). Filled by the store when a caller leaves it out.
   */
  topicId?: string;
}

export interface AppendResult {
  /** Offset the broker assigned to the batch's first record. */
  baseOffset: bigint;
  logStartOffset: bigint;
}

export interface TimestampLookup {
  offset: bigint;
  timestamp: bigint;
}

export interface PartitionLog {
  readonly topic: string;
  readonly partition: number;
  /** First offset still stored. */
  logStartOffset(): bigint;
  /** Offset the next appended record gets (also the high watermark on a single node). */
  logEndOffset(): bigint;
  /**
   * The last stable offset: the first offset of the earliest transaction still open in the partition, or the log
   * end when none is. read_committed consumers read below it.
   */
  lastStableOffset(): bigint;
  /** The aborted transactions whose records lie in [from, to) (at least in part): what a read_committed reader skips. */
  abortedTransactions(from: bigint, to: bigint): { producerId: bigint; firstOffset: number; lastOffset: number }[];
  /** Whether the producer has a transaction open in this partition (written to it, and not ended by a marker). */
  hasOpenTransaction(producerId: bigint): boolean;
  /**
   * Appends one record batch exactly as received, rewriting only its base offset field. Resolves once the
   * bytes are handed to the operating system (file store), so an acknowledged batch survives a process kill.
   * Rejects with ApiError(CORRUPT_MESSAGE / INVALID_RECORD / UNSUPPORTED_FOR_MESSAGE_FORMAT) for a batch
   * that is not a well-formed magic-2 batch with a valid CRC-32C.
   */
  append(batch: Buffer): Promise<AppendResult>;
  /** Appends several batches in order (one produce request's records for this partition, as received). */
  appendAll(batches: ChunkedBytes[]): Promise<AppendResult>;
  /**
   * Whole batches, concatenated, starting with the batch that contains `offset`, adding batches while the
   * total stays within `maxBytes` — but always at least one batch when one exists at or after `offset` — and none
   * that starts at `maxOffset` or later. Empty when offset == logEndOffset(). Rejects with ApiError(OFFSET_OUT_OF_RANGE)
   * outside [logStartOffset, logEndOffset].
   */
  read(offset: bigint, maxBytes: number, maxOffset?: bigint): Promise<ChunkedBytes>;
  /** The first record at or after the log start whose timestamp is >= timestamp: its offset and timestamp; null when there is none. */
  offsetForTimestamp(timestamp: bigint): Promise<TimestampLookup | null>;
  /** The first record at or after the log start that has the largest timestamp in the log; null when there is none. */
  recordWithMaxTimestamp(): Promise<TimestampLookup | null>;
  /**
   * DeleteRecords: moves the log start offset up to `offset` (a lower one changes nothing) and deletes the segments
   * wholly below it; durable once resolved, with the new log start offset. Rejects with ApiError(OFFSET_OUT_OF_RANGE)
   * for a negative offset or one beyond the log end.
   */
  deleteRecordsBefore(offset: bigint): Promise<bigint>;
  /** Bytes currently stored. */
  sizeInBytes(): number;
}

export interface CommittedOffset {
  offset: bigint;
  metadata: string | null;
  commitTimestamp: bigint;
}

export interface OffsetCommitEntry {
  topic: string;
  partition: number;
  offset: bigint;
  metadata: string | null;
}

export interface TopicPartitionRef {
  topic: string;
  partition: number;
}

/** A classic group's member as the offsets journal keeps it (Kafka's GroupMetadata member record). */
export interface StoredGroupMember {
  memberId: string;
  groupInstanceId: string | null;
  clientId: string;
  clientHost: string;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  /** The member's metadata for the group's chosen protocol. */
  subscription: Buffer;
  assignment: Buffer;
}

/**
 * A classic group's membership as of its last completed generation, or of its emptying (then no members), kept
 * beside its committed offsets so that a restarted broker lets the members go on in the same generation.
 */
export interface StoredGroup {
  groupId: string;
  protocolType: string;
  protocolName: string | null;
  generationId: number;
  leaderId: string | null;
  members: StoredGroupMember[];
}

/**
 * A consumer protocol group's member as the offsets journal keeps it (Kafka's ConsumerGroupMemberMetadata, current and
 * target assignment records): the coordinator's member with its partition keys (topic id and partition) as lists, and
 * its target assignment.
 */
export type StoredConsumerGroupMember = Omit<ConsumerProtocolMember, "assigned" | "revoking"> & { assigned: string[]; revoking: string[]; target: string[] };

/**
 * A consumer protocol (KIP-848) group as of its last change of membership, epochs or assignments: a restarted broker
 * takes it up, so the members heartbeat on with their epochs, as after a Kafka coordinator failover.
 */
export interface StoredConsumerGroup {
  protocol: "consumer";
  groupId: string;
  groupEpoch: number;
  targetEpoch: number;
  assignorName: string | null;
  members: StoredConsumerGroupMember[];
}

/** What the offsets journal keeps of a group's membership, under either protocol: a group is of one type. */
export type StoredMembership = StoredGroup | StoredConsumerGroup;

export const isStoredConsumerGroup = (stored: StoredMembership): stored is StoredConsumerGroup => "protocol" in stored && stored.protocol === "consumer";

export interface OffsetStore {
  /** Durable once resolved. */
  commit(groupId: string, entries: OffsetCommitEntry[], commitTimestamp: bigint): Promise<void>;
  fetch(groupId: string, topic: string, partition: number): CommittedOffset | undefined;
  /** Every committed offset of a group: topic → partition → offset. */
  groupOffsets(groupId: string): Map<string, Map<number, CommittedOffset>>;
  /** The groups with committed offsets or stored membership. */
  groups(): string[];
  /** Durable once resolved; replaces the group's earlier membership. */
  saveGroup(group: StoredMembership): Promise<void>;
  storedGroups(): StoredMembership[];
  /** Forgets the offsets of a deleted topic in every group. */
  deleteTopic(topic: string): Promise<void>;
  /** Forgets every offset and the membership of a deleted group. */
  deleteGroup(groupId: string): Promise<void>;
  /** Forgets a group's offsets of these partitions (OffsetDelete); the group goes with its last offset. */
  deleteOffsets(groupId: string, partitions: TopicPartitionRef[]): Promise<void>;
}

export interface LogStore {
  open(): Promise<void>;
  close(): Promise<void>;
  topics(): ReadonlyMap<string, TopicSettings>;
  /** Rejects with ApiError(TOPIC_ALREADY_EXISTS) when it exists. */
  createTopic(name: string, settings: TopicSettings): Promise<void>;
  /** Rejects with ApiError(UNKNOWN_TOPIC_OR_PARTITION) when it does not exist. */
  deleteTopic(name: string): Promise<void>;
  /**
   * CreatePartitions: grows the topic to `count` partitions. Rejects with ApiError(UNKNOWN_TOPIC_OR_PARTITION) when it
   * does not exist, ApiError(INVALID_PARTITIONS) when it has `count` partitions or more.
   */
  addPartitions(name: string, count: number): Promise<void>;
  partition(topic: string, partition: number): PartitionLog | undefined;
  readonly offsets: OffsetStore;
  /** Deletes what retention allows; the broker calls it periodically. */
  enforceRetention(nowMs: number): Promise<void>;
  /** Called after every successful append, so the broker can wake long-polling fetches. */
  onAppend(listener: (topic: string, partition: number) => void): void;
  /** A producer id no producer was given before, by this store or before it was reopened (InitProducerId). */
  allocateProducerId(): Promise<bigint>;
}

export interface LogStoreOptions {
  /** Directory of the file store; ignored by the memory store. */
  dataDir: string;
  /** Roll a new segment file after this many bytes (file store). */
  segmentBytes: number;
  /** Sync a partition's log once this many records are written and not synced (file store); absent or null: never. */
  flushMessages?: number | null;
  /** Where the file store's reads take the memory they fill; whoever writes the bytes out gives it back. */
  readBuffers?: ReadBuffers;
  /** Defaults for topics created without explicit settings. */
  defaultRetentionMs: number | null;
  defaultRetentionBytes: number | null;
}
