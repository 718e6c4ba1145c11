import { token } from "./token";

/**
 * Container token for single-partition topics read and appended as logs with Sluice's own Kafka client, on the
 * cluster the rest of Sluice uses (the configured one with its security settings, else the embedded broker). For a
 * plugin that keeps its state in a topic of its own, as the schema registry keeps `_schemas`.
 */
export const KAFKA_TOPIC_LOGS = token<KafkaTopicLogs>("sluice.kafka.TopicLogs");

export interface KafkaTopicLogs {
  /** The log of `topic`'s one partition. Nothing connects until it is first read or appended to. */
  open(topic: string, options: TopicLogOptions): TopicLog;
}

export interface TopicLogOptions {
  /** The client id its connections give the broker. */
  clientId: string;
  /** Configs of the topic (`cleanup.policy`, …) when the log creates it. */
  configs?: Readonly<Record<string, string>>;
}

/** A record of a log, its key and value its own bytes. */
export interface LogRecord {
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
}

export interface TopicLog {
  /**
   * Hands `each` every record from offset `from` up to the log's end as it is when called, in order, the topic
   * created first when missing; answers the offset to read from next. A `from` before the log's start reads from
   * its start.
   */
  readToEnd(from: number, each: (record: LogRecord) => void): Promise<number>;
  /** Appends one record, acknowledged by every in-sync replica; answers its offset. */
  append(key: Buffer | string, value: Buffer | string | null): Promise<number>;
  /** Closes its connections; a later read or append opens them again. */
  close(): Promise<void>;
}
