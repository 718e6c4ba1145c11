/**
 * The APIs Sluice's client sends, each in the versions it may send: those the protocol package declares, from the
 * lowest one Apache Kafka 4.x still accepts. KIP-896 removed the versions older than Kafka 2.1's (with exceptions
 * for popular clients); a 4.x broker closes the connection on a request in a removed version. Every connection
 * checks them all against the broker's ApiVersions answer when it opens.
 */
import {
  AddOffsetsToTxn,
  AddPartitionsToTxn,
  ApiCodec,
  ConsumerGroupHeartbeat,
  CreateTopics,
  DeleteRecords,
  DescribeConfigs,
  DescribeGroups,
  EndTxn,
  TxnOffsetCommit,
  ApiVersions,
  Fetch,
  FindCoordinator,
  Heartbeat,
  InitProducerId,
  JoinGroup,
  LeaveGroup,
  ListOffsets,
  Metadata,
  OffsetCommit,
  OffsetFetch,
  Produce,
  SaslAuthenticate,
  SaslHandshake,
  SyncGroup,
} from "../kafka-protocol";

/** Sent at version 0, which every broker answers, before the broker's versions are known. */
export const API_VERSIONS = new ApiCodec(ApiVersions);
/** KIP-896 lists 0-3; Kafka 4.0 kept them for kafka-python (KAFKA-18648), Sluice needs none of them. */
export const METADATA = new ApiCodec(Metadata, "4+");
/** 0-2 removed; a 4.x broker still lists Produce from 0 (KAFKA-18659) but refuses those. */
export const PRODUCE = new ApiCodec(Produce, "3+");
/** 0-3 removed. */
export const FETCH = new ApiCodec(Fetch, "4+");
/** 0 removed. */
export const LIST_OFFSETS = new ApiCodec(ListOffsets, "1+");
/** 0 kept (KAFKA-18270). */
export const FIND_COORDINATOR = new ApiCodec(FindCoordinator);
/** 0-1 removed in 4.0.0, back in 4.0.1 for old librdkafka (KAFKA-19444). */
export const JOIN_GROUP = new ApiCodec(JoinGroup, "2+");
export const SYNC_GROUP = new ApiCodec(SyncGroup);
export const HEARTBEAT = new ApiCodec(Heartbeat);
export const LEAVE_GROUP = new ApiCodec(LeaveGroup);
/**
 * The consumer group protocol's (KIP-848): not among CLIENT_APIS, since a classic member needs none of it. v0 (the
 * early access of Kafka 3.7–3.9, where the coordinator chose member ids) is not sent.
 */
export const CONSUMER_GROUP_HEARTBEAT = new ApiCodec(ConsumerGroupHeartbeat, "1+");
/** 0-1 removed. */
export const OFFSET_COMMIT = new ApiCodec(OffsetCommit, "2+");
/** 0 removed. */
export const OFFSET_FETCH = new ApiCodec(OffsetFetch, "1+");
/** None removed; the idempotent and the transactional producer's id. */
export const INIT_PRODUCER_ID = new ApiCodec(InitProducerId);
/**
 * The transactional producer's: none removed. Not among CLIENT_APIS, which every connection checks: a broker without
 * transactions serves the rest of the client, and its coordinator's connection fails the first transactional call.
 */
export const ADD_PARTITIONS_TO_TXN = new ApiCodec(AddPartitionsToTxn);
export const ADD_OFFSETS_TO_TXN = new ApiCodec(AddOffsetsToTxn);
export const TXN_OFFSET_COMMIT = new ApiCodec(TxnOffsetCommit);
export const END_TXN = new ApiCodec(EndTxn);

/**
 * The cluster admin's (cluster-admin.ts). Not among CLIENT_APIS either: a broker that refuses them (an ACL, an older
 * version) still serves the consumer and the producer, and the admin call that needs one fails naming it.
 */
/** 0-1 removed. */
export const CREATE_TOPICS = new ApiCodec(CreateTopics, "2+");
export const DESCRIBE_GROUPS = new ApiCodec(DescribeGroups);
export const DELETE_RECORDS = new ApiCodec(DeleteRecords);
/** 0 removed. */
export const DESCRIBE_CONFIGS = new ApiCodec(DescribeConfigs, "1+");

/** v1: the tokens travel in SaslAuthenticate requests (v0 sends them bare, which Sluice does not). */
export const SASL_HANDSHAKE = new ApiCodec(SaslHandshake, "1+");
export const SASL_AUTHENTICATE = new ApiCodec(SaslAuthenticate);

/** What negotiating an API's version needs to know of it. */
export type NegotiatedApi = Pick<ApiCodec, "apiKey" | "versions" | "spec">;

export const CLIENT_APIS: readonly NegotiatedApi[] = [API_VERSIONS, METADATA, PRODUCE, FETCH, LIST_OFFSETS, FIND_COORDINATOR, JOIN_GROUP, SYNC_GROUP, HEARTBEAT, LEAVE_GROUP, OFFSET_COMMIT, OFFSET_FETCH, INIT_PRODUCER_ID];

/** Checked too on connections that authenticate with SASL. */
export const SASL_APIS: readonly NegotiatedApi[] = [SASL_HANDSHAKE, SASL_AUTHENTICATE];
