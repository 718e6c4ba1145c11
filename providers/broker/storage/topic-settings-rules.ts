/** What a valid topic is: Kafka's name rules (the name also becomes a directory name) and sane settings. */
import { randomBytes } from "node:crypto";
import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import type { LogStoreOptions, TopicSettings } from "./log-store";

const MAX_TOPIC_NAME_LENGTH = 249;
const LEGAL_TOPIC_NAME = /^[a-zA-Z0-9._-]+$/;

export function assertValidTopicName(name: string): void {
  if (
    name.length === 0 ||
    name.length > MAX_TOPIC_NAME_LENGTH ||
    name === "." ||
    name === ".." ||
    !LEGAL_TOPIC_NAME.test(name)
  ) {
    throw new ApiError(
      ErrorCode.INVALID_TOPIC_EXCEPTION,
      `invalid topic name ${JSON.stringify(name)}: use 1-${MAX_TOPIC_NAME_LENGTH} of [a-zA-Z0-9._-], not "." or ".."`,
    );
  }
}

/**
 * Validates `settings`, filling retention fields a caller left undefined (an untyped caller, or a
 * settings file from an older version) with the store's defaults; null stays "unbounded". Configs are kept only when
 * there are some.
 */
export function resolveTopicSettings(settings: Partial<TopicSettings>, options: LogStoreOptions): TopicSettings {
  const partitions = settings.partitions;
  if (partitions === undefined || !Number.isInteger(partitions) || partitions < 1) {
    throw new ApiError(ErrorCode.INVALID_PARTITIONS, `number of partitions must be a positive integer, got ${partitions}`);
  }
  const retentionMs = settings.retentionMs === undefined ? options.defaultRetentionMs : settings.retentionMs;
  const retentionBytes = settings.retentionBytes === undefined ? options.defaultRetentionBytes : settings.retentionBytes;
  for (const [key, value] of [["retentionMs", retentionMs], ["retentionBytes", retentionBytes]] as const) {
    if (value !== null && (!Number.isFinite(value) || value < 0)) {
      throw new ApiError(ErrorCode.INVALID_CONFIG, `${key} must be null or a non-negative number, got ${value}`);
    }
  }
  const configs = settings.configs;
  if (configs !== undefined && (typeof configs !== "object" || configs === null || Object.values(configs).some((value) => typeof value !== "string"))) {
    throw new ApiError(ErrorCode.INVALID_CONFIG, `configs must map config names to strings, got ${JSON.stringify(configs)}`);
  }
  const topicId = typeof settings.topicId === "string" && /^[A-Za-z0-9_-]{22}$/.test(settings.topicId) ? settings.topicId : newTopicId();
  return { partitions, retentionMs, retentionBytes, topicId, ...(configs === undefined || Object.keys(configs).length === 0 ? {} : { configs: { ...configs } }) };
}

/**
 * A new topic id as Kafka prints a Uuid (URL-safe base64 of 16 random bytes, unpadded). Like Kafka's Uuid.randomUuid,
 * never the zero id nor the reserved id 1, and never one whose text starts with "-" (it would read as a command-line flag).
 */
export function newTopicId(): string {
  for (;;) {
    const bytes = randomBytes(16);
    const text = bytes.toString("base64url");
    const reserved = bytes.subarray(0, 15).every((byte) => byte === 0) && bytes[15] <= 1;
    if (!reserved && !text.startsWith("-")) return text;
  }
}
