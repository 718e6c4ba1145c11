/**
 * The configs the broker knows, under Kafka's names: a topic's (those CreateTopics honours, and the broker-wide
 * ones that apply to every topic) and the broker's own, each with its type, Kafka's default and where this broker
 * takes its value from. CreateTopics reads topic configs with them; DescribeConfigs reports both.
 */
import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import type { TopicSettings } from "../storage/log-store";
import { BROKER_NODE_ID, type BrokerConfigValues } from "./broker-services";

/** Kafka's ConfigType, as DescribeConfigs v3+ writes it. */
export const ConfigType = { BOOLEAN: 1, INT: 3, LONG: 5, LIST: 7 } as const;

interface ConfigCommon {
  readonly name: string;
  readonly type: (typeof ConfigType)[keyof typeof ConfigType];
  /** Kafka's default; null for a config Kafka has none of (node.id). */
  readonly kafkaDefault: string | null;
  readonly doc: string;
}

export interface BrokerConfig extends ConfigCommon {
  value(broker: BrokerConfigValues): string;
}

export interface TopicConfig extends ConfigCommon {
  /** The broker config that sets it for topics that do not. */
  readonly brokerConfig: BrokerConfig;
  /** How a topic's own value changes its settings; absent for a config only the broker sets. */
  readonly apply?: (value: string) => Partial<TopicSettings>;
}

/** Kafka writes "keep forever" as -1. */
const unbounded = (value: number | null): string => String(value ?? -1);

/** A retention setting from its Kafka value. */
function retentionValue(value: string, name: string): number | null {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < -1) throw new ApiError(ErrorCode.INVALID_CONFIG, `invalid ${name} "${value}"`);
  return parsed === -1 ? null : parsed;
}

const LOG_RETENTION_MS: BrokerConfig = {
  name: "log.retention.ms",
  type: ConfigType.LONG,
  kafkaDefault: "604800000",
  doc: "How long a topic keeps its records by default (broker.retention.ms); -1: forever.",
  value: (broker) => unbounded(broker.retentionMs),
};
const LOG_RETENTION_BYTES: BrokerConfig = {
  name: "log.retention.bytes",
  type: ConfigType.LONG,
  kafkaDefault: "-1",
  doc: "Size a partition is trimmed to by default (broker.retention.bytes); -1: unbounded.",
  value: (broker) => unbounded(broker.retentionBytes),
};
const LOG_SEGMENT_BYTES: BrokerConfig = {
  name: "log.segment.bytes",
  type: ConfigType.INT,
  kafkaDefault: "1073741824",
  doc: "Size at which a partition's log rolls a new segment file (broker.segment.bytes).",
  value: (broker) => String(broker.segmentBytes),
};
/** Kafka's default, Long.MAX_VALUE, is "never": the OS writes back. */
const NEVER_FLUSH = "9223372036854775807";
const LOG_FLUSH_INTERVAL_MESSAGES: BrokerConfig = {
  name: "log.flush.interval.messages",
  type: ConfigType.LONG,
  kafkaDefault: NEVER_FLUSH,
  doc: "Records written to a partition's log before it is synced to disk (broker.flush.messages); the default: never, the OS writes back.",
  value: (broker) => (broker.flushMessages === null ? NEVER_FLUSH : String(broker.flushMessages)),
};
const LOG_CLEANUP_POLICY: BrokerConfig = {
  name: "log.cleanup.policy",
  type: ConfigType.LIST,
  kafkaDefault: "delete",
  doc: "What becomes of old records by default: delete (by retention). This broker does not compact.",
  value: () => "delete",
};

export const BROKER_CONFIGS: readonly BrokerConfig[] = [
  { name: "node.id", type: ConfigType.INT, kafkaDefault: null, doc: "The broker's id: the only node of its cluster.", value: () => String(BROKER_NODE_ID) },
  { name: "num.partitions", type: ConfigType.INT, kafkaDefault: "1", doc: "Partitions of topics created without a count (broker.num.partitions).", value: (broker) => String(broker.numPartitions) },
  {
    name: "auto.create.topics.enable",
    type: ConfigType.BOOLEAN,
    kafkaDefault: "true",
    doc: "Whether Metadata requests create the unknown topics they name (broker.auto.create.topics).",
    value: (broker) => String(broker.autoCreateTopics),
  },
  LOG_RETENTION_MS,
  LOG_RETENTION_BYTES,
  LOG_SEGMENT_BYTES,
  LOG_FLUSH_INTERVAL_MESSAGES,
  LOG_CLEANUP_POLICY,
  {
    name: "socket.request.max.bytes",
    type: ConfigType.INT,
    kafkaDefault: "104857600",
    doc: "Largest request a client may send; a larger one closes its connection (broker.max.request.bytes).",
    value: (broker) => String(broker.maxRequestBytes),
  },
];

export const TOPIC_CONFIGS: readonly TopicConfig[] = [
  {
    name: "cleanup.policy",
    type: ConfigType.LIST,
    kafkaDefault: "delete",
    doc: "delete: records go by retention; compact (kept, not compacted, by this broker): records are never deleted by retention.",
    brokerConfig: LOG_CLEANUP_POLICY,
    apply: (value) => {
      const policies = value.split(",").map((policy) => policy.trim());
      const unknown = policies.filter((policy) => policy !== "delete" && policy !== "compact");
      if (unknown.length > 0) throw new ApiError(ErrorCode.INVALID_CONFIG, `invalid cleanup.policy "${value}": each policy is compact or delete`);
      return policies.includes("delete") ? {} : { retentionMs: null, retentionBytes: null };
    },
  },
  {
    name: "retention.ms",
    type: ConfigType.LONG,
    kafkaDefault: LOG_RETENTION_MS.kafkaDefault,
    doc: "How long the topic keeps its records; -1: forever.",
    brokerConfig: LOG_RETENTION_MS,
    apply: (value) => ({ retentionMs: retentionValue(value, "retention.ms") }),
  },
  {
    name: "retention.bytes",
    type: ConfigType.LONG,
    kafkaDefault: LOG_RETENTION_BYTES.kafkaDefault,
    doc: "Size each partition of the topic is trimmed to; -1: unbounded.",
    brokerConfig: LOG_RETENTION_BYTES,
    apply: (value) => ({ retentionBytes: retentionValue(value, "retention.bytes") }),
  },
  {
    name: "segment.bytes",
    type: ConfigType.INT,
    kafkaDefault: LOG_SEGMENT_BYTES.kafkaDefault,
    doc: "Size at which a partition's log rolls a new segment file; set for every topic by the broker.",
    brokerConfig: LOG_SEGMENT_BYTES,
  },
];

/**
 * Every topic config Kafka 4.4 knows. CreateTopics refuses any other name with INVALID_CONFIG, as Kafka does; those
 * of them this broker does not honour (TOPIC_CONFIGS) are accepted and ignored, so that clients which set them, as
 * Kafka Streams sets message.timestamp.type on its internal topics, can create their topics.
 */
const KAFKA_TOPIC_CONFIG_NAMES: ReadonlySet<string> = new Set([
  "cleanup.policy",
  "compression.gzip.level",
  "compression.lz4.level",
  "compression.type",
  "compression.zstd.level",
  "delete.retention.ms",
  "errors.deadletterqueue.group.enable",
  "file.delete.delay.ms",
  "flush.messages",
  "flush.ms",
  "follower.replication.throttled.replicas",
  "index.interval.bytes",
  "internal.segment.bytes",
  "leader.replication.throttled.replicas",
  "local.retention.bytes",
  "local.retention.ms",
  "max.compaction.lag.ms",
  "max.decompressed.message.bytes",
  "max.message.bytes",
  "message.timestamp.after.max.ms",
  "message.timestamp.before.max.ms",
  "message.timestamp.type",
  "min.cleanable.dirty.ratio",
  "min.compaction.lag.ms",
  "min.insync.replicas",
  "preallocate",
  "remote.copy.lag.bytes",
  "remote.copy.lag.ms",
  "remote.log.copy.disable",
  "remote.log.delete.on.disable",
  "remote.storage.enable",
  "retention.bytes",
  "retention.ms",
  "segment.bytes",
  "segment.index.bytes",
  "segment.jitter.ms",
  "segment.ms",
  "unclean.leader.election.enable",
]);

/**
 * The settings and kept configs of a topic created with `configs`. Rejects with INVALID_CONFIG a name Kafka does not
 * know and a value this broker cannot honour; Kafka's configs this broker does not honour are ignored.
 */
export function topicSettingsOf(configs: readonly { name: string; value: string | null }[]): Partial<TopicSettings> {
  let settings: Partial<TopicSettings> = {};
  const kept: Record<string, string> = {};
  for (const { name, value } of configs) {
    if (!KAFKA_TOPIC_CONFIG_NAMES.has(name)) throw new ApiError(ErrorCode.INVALID_CONFIG, `unknown topic config ${name}`);
    const apply = TOPIC_CONFIGS.find((config) => config.name === name)?.apply;
    if (apply === undefined || value === null) continue;
    settings = { ...settings, ...apply(value) };
    kept[name] = value;
  }
  return Object.keys(kept).length > 0 ? { ...settings, configs: kept } : settings;
}
