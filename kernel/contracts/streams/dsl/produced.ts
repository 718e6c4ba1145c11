/**
 * How a sink writes its topic (Kafka Streams' Produced), and the two things a sink may decide per record: which
 * topic (TopicNameExtractor) and which partitions (StreamPartitioner).
 */
import type { Headers } from "../processor";
import type { SerdeRef } from "./serde-ref";

export interface Produced<K, V> {
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Name of the sink node. */
  name?: string;
  /**
   * Picks each record's partitions (Kafka Streams' Produced.withStreamPartitioner). Without one, a record goes to the
   * murmur2 partition of its serialized key, or of its inner key when the key is windowed (Kafka Streams'
   * WindowedStreamPartitioner), so windows of one key share a partition.
   */
  streamPartitioner?: StreamPartitioner<K, V>;
}

/** Where the record a sink writes comes from (Kafka Streams' RecordContext): its input record's topic, partition and offset. */
export interface RecordContext {
  /** Null when the record comes from a punctuation. */
  readonly topic: string | null;
  readonly partition: number;
  readonly offset: number;
  readonly timestamp: number;
  readonly headers: Headers;
}

/** Kafka Streams' TopicNameExtractor: the topic of each record `to()` writes. The topic must exist, as in Kafka Streams. */
export interface TopicNameExtractor<K, V> {
  extract(key: K, value: V, recordContext: RecordContext): string;
}

/**
 * Kafka Streams' StreamPartitioner (KIP-837): the partitions a record is written to, each in [0, numPartitions).
 * Undefined: the default partitioner's choice; an empty set: the record is dropped (counted in dropped-records);
 * several partitions: a copy of the record goes to each (multicast).
 */
export interface StreamPartitioner<K, V> {
  partitions(topic: string, key: K, value: V, numPartitions: number, headers: Headers): Set<number> | undefined;
}
