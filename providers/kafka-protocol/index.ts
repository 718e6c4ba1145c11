/**
 * The Kafka wire protocol as Sluice speaks it, shared by its broker and its client as Kafka's broker builds on the
 * messages of its `clients` module: message declarations and the one generic codec, framing, error codes, the
 * consumer protocol, the SASL mechanisms' messages (both sides, as Kafka's clients module holds both), and the
 * record format. It imports nothing else of Sluice's. The broker imports the modules it needs one by one, which
 * keeps the compression libraries (records/compression-codecs) out of its thread.
 */
export * from "./schema";
export * from "./version-range";
export * from "./byte-reader";
export * from "./byte-writer";
export * from "./chunked-bytes";
export * from "./codec";
export * from "./api-codec";
export * from "./data-codec";
export * from "./malformed-message-error";
export * from "./error-codes";
export * from "./frame-splitter";
export * from "./consumer-protocol";
export * from "./messages/request-header";
export * from "./messages/api-versions";
export * from "./messages/metadata";
export * from "./messages/produce";
export * from "./messages/fetch";
export * from "./messages/list-offsets";
export * from "./messages/create-topics";
export * from "./messages/delete-topics";
export * from "./messages/find-coordinator";
export * from "./messages/join-group";
export * from "./messages/sync-group";
export * from "./messages/heartbeat";
export * from "./messages/consumer-group-heartbeat";
export * from "./messages/consumer-group-describe";
export * from "./messages/leave-group";
export * from "./messages/offset-commit";
export * from "./messages/offset-fetch";
export * from "./messages/offset-delete";
export * from "./messages/describe-groups";
export * from "./messages/list-groups";
export * from "./messages/describe-configs";
export * from "./messages/describe-cluster";
export * from "./messages/delete-groups";
export * from "./messages/delete-records";
export * from "./messages/create-partitions";
export * from "./messages/sasl-handshake";
export * from "./messages/sasl-authenticate";
export * from "./messages/init-producer-id";
export * from "./messages/add-partitions-to-txn";
export * from "./messages/add-offsets-to-txn";
export * from "./messages/txn-offset-commit";
export * from "./messages/end-txn";
export * from "./messages/describe-transactions";
export * from "./messages/list-transactions";
export * from "./messages/describe-acls";
export * from "./messages/create-acls";
export * from "./messages/delete-acls";
export * from "./messages/consumer-protocol-subscription";
export * from "./messages/consumer-protocol-assignment";
export * from "./sasl/sasl-mechanisms";
export * from "./sasl/sasl-message-error";
export * from "./sasl/scram";
export * from "./sasl/plain";
export * from "./sasl/oauthbearer";
export * from "./records/record-batch";
export * from "./records/crc32c";
export * from "./records/int64-numbers";
export * from "./records/compression-codecs";
export * from "./records/producer-stamp";
export * from "./records/control-batch";
export * from "./records/plain-records";
export * from "./records/record-batch-encoder";
export * from "./records/record-batch-decoder";
