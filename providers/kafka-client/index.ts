/**
 * Sluice's own Kafka client for the streams runtime's hot path: a producer speaking the wire protocol directly
 * (through the broker's codecs), records encoded in place; and its consumer-group member, whose fetched records are
 * decoded without kafkajs's per-record Long and string conversions. Changelog restores read through the same
 * fetcher. Admin calls (topic creation and metadata, log-end offsets, DescribeGroups) stay on kafkajs.
 */
export { RecordProducer, type PartitionOffsets, type PartitionRecords, type RecordProducerOptions } from "./record-producer";
export { encodeRecordBatch, encodeRecordBatches, DEFAULT_MAX_BATCH_BYTES, type EncodedBatch, type ProducerRecord } from "../kafka-protocol/records/record-batch-encoder";
export { BrokerConnectionError, GroupError, ProduceError } from "./kafka-client-errors";
export { murmur2, partitionOfKey } from "./murmur2-partitioner";
export { GroupConsumer, type GroupConsumerHandlers, type GroupConsumerOptions } from "./group-consumer";
export { PartitionFetcher, type KafkaEndpoint, type FetchAnswer, type FetchedBatch, type PartitionError, type PartitionFetcherOptions } from "./partition-fetcher";
export { subscribedTopics, type GroupAssignor, type TopicPartitionOffset } from "./group-membership";
export { FetchedRecords, CorruptRecordError, type ConsumedRecord } from "../kafka-protocol/records/record-batch-decoder";
export { COMPRESSION_TYPES, codecsReady, type CompressionType } from "../kafka-protocol/records/compression-codecs";
