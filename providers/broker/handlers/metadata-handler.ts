import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import { Metadata } from "../../kafka-protocol/messages/metadata";
import type { ResponseOf } from "../../kafka-protocol/schema";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import { BROKER_NODE_ID, type BrokerServices } from "./broker-services";
import { errorCodeOf } from "./error-code-of";
import { isValidTopicName } from "./topic-admin";
import { TransactionCoordinator } from "../transactions/transaction-coordinator";

type TopicMetadata = ResponseOf<typeof Metadata>["topics"][number];

export function metadataHandler(services: BrokerServices, autoCreateTopics: boolean): RegisteredHandler {
  const { store, topics, logger } = services;

  const describe = (name: string): TopicMetadata => {
    const settings = store.topics().get(name);
    if (!settings) return { errorCode: ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, name, partitions: [] };
    return {
      errorCode: ErrorCode.NONE,
      name,
      topicId: settings.topicId,
      isInternal: TransactionCoordinator.isStateTopic(name),
      partitions: Array.from({ length: settings.partitions }, (_, partitionIndex) => ({
        errorCode: ErrorCode.NONE,
        partitionIndex,
        leaderId: BROKER_NODE_ID,
        replicaNodes: [BROKER_NODE_ID],
        isrNodes: [BROKER_NODE_ID],
      })),
    };
  };

  const describeOrCreate = async (name: string, mayCreate: boolean): Promise<TopicMetadata> => {
    if (!isValidTopicName(name)) return { errorCode: ErrorCode.INVALID_TOPIC_EXCEPTION, name, partitions: [] };
    if (mayCreate && !topics.exists(name)) {
      try {
        await topics.ensure(name);
      } catch (error) {
        if (!(error instanceof ApiError && error.code === ErrorCode.TOPIC_ALREADY_EXISTS)) {
          return { errorCode: errorCodeOf(error, logger, `auto-creating topic ${name}`), name, partitions: [] };
        }
      }
    }
    return describe(name);
  };

  // v10+ names each topic's id; topics are asked for by name (v12+, by id, is not declared).
  return defineHandler(Metadata, async (request, { apiVersion, advertisedHost, advertisedPort }) => {
    // v0 asks for every topic with an empty list; later versions with null.
    const everyTopic = request.topics === null || (apiVersion === 0 && request.topics.length === 0);
    const mayCreate = autoCreateTopics && request.allowAutoTopicCreation;
    const described = everyTopic
      ? [...store.topics().keys()].map(describe)
      : await Promise.all(request.topics!.map(({ name }) => describeOrCreate(name, mayCreate)));
    return {
      brokers: [{ nodeId: BROKER_NODE_ID, host: advertisedHost, port: advertisedPort, rack: null }],
      clusterId: services.clusterId,
      controllerId: BROKER_NODE_ID,
      topics: described,
    };
  });
}
