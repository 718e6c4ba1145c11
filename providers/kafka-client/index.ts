/**
 * Sluice's own Kafka producer for the streams runtime's hot output: the wire protocol spoken directly
 * (through the broker's codecs), records encoded in place. Consumer groups and admin stay on kafkajs.
 */
export { RecordProducer, type PartitionOffsets, type PartitionRecords, type RecordProducerOptions } from "./record-producer";
export { encodeRecordBatch, encodeRecordBatches, DEFAULT_MAX_BATCH_BYTES, type EncodedBatch, type ProducerRecord } from "./record-batch-encoder";
export { BrokerConnectionError, ProduceError } from "./kafka-client-errors";
export { murmur2, partitionOfKey } from "./murmur2-partitioner";
