/**
 * Sluice's own Kafka client for the streams runtime's hot path: a producer speaking the wire protocol directly
 * (through the protocol package's codecs), records encoded in place, idempotent or transactional; and its
 * consumer-group member, whose fetched records are decoded without kafkajs's per-record Long and string conversions,
 * read_uncommitted or read_committed. Changelog restores read through the same
 * fetcher. Its cluster admin makes the runtime's other calls (topics, partition counts, log ends, committed offsets,
 * groups, record deletion, topic configs) over the same kind of connection pool and metadata. No kafkajs here.
 */
export { RecordProducer, type PartitionBatches, type PartitionOffsets, type PartitionRecords, type ProducerIdentity, type RecordProducerOptions } from "./record-producer";
export { TransactionalProducer, type ConsumerGroupMetadata, type TransactionalProducerOptions } from "./transactional-producer";
export { TransactionError, type TransactionErrorKind, type TransactionalOperation } from "./transaction-errors";
export { ClusterAdmin, type ClusterAdminOptions, type GroupDescription, type GroupMemberDescription, type NewTopic, type PartitionEnds } from "./cluster-admin";
export { AuthenticationError, BrokerConnectionError, ClusterAdminError, GroupError, isFencedInstance, MembershipLostError, ProduceError, ProducerIdError, UnsupportedVersionError } from "./kafka-client-errors";
export { type BrokerSecurity } from "./broker-connection";
export { type SaslSettings } from "./sasl-authentication";
export { OAuthBearerTokens, type BearerToken } from "./oauthbearer-tokens";
export { clientCredentialsToken, type ClientCredentials } from "./client-credentials-token";
export { checkClusterAccess } from "./cluster-access";
export { murmur2, partitionOfKey } from "./murmur2-partitioner";
export { GroupConsumer, type GroupConsumerHandlers, type GroupConsumerOptions, type RebalanceProtocol } from "./group-consumer";
export type { KafkaEndpoint } from "./kafka-endpoint";
export { PartitionLog } from "./partition-log";
export { PartitionFetcher, type FetchAnswer, type FetchedBatch, type IsolationLevel, type PartitionError, type PartitionFetcherOptions, type PartitionLag } from "./partition-fetcher";
export { type GroupAssignor, type TopicPartitionOffset } from "./group-membership";
export { COMPRESSION_TYPES, type ByteRange, type CompressionType, type ConsumedRecord, type FetchedRecords, type ProducerRecord, type RecordHeader, type StampHeader } from "../kafka-protocol";
