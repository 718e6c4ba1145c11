/**
 * Authorization of the topic APIs, as Kafka's KafkaApis checks them: WRITE to produce, READ to fetch, DESCRIBE to
 * list offsets and see metadata (Metadata leaves out the topics a listing of every topic may not describe), CREATE
 * (on the cluster or the topic) to create, DELETE to delete topics and records, ALTER to add partitions,
 * DESCRIBE_CONFIGS for configs. Each refused topic is answered with TOPIC_AUTHORIZATION_FAILED; the rest is served.
 */
import { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { CreatePartitions } from "../../kafka-protocol/messages/create-partitions";
import { CreateTopics } from "../../kafka-protocol/messages/create-topics";
import { DeleteRecords } from "../../kafka-protocol/messages/delete-records";
import { DeleteTopics } from "../../kafka-protocol/messages/delete-topics";
import { DescribeConfigs } from "../../kafka-protocol/messages/describe-configs";
import { Fetch } from "../../kafka-protocol/messages/fetch";
import { ListOffsets } from "../../kafka-protocol/messages/list-offsets";
import { Metadata } from "../../kafka-protocol/messages/metadata";
import { Produce } from "../../kafka-protocol/messages/produce";
import type { RequestContext } from "../handlers/api-handler";
import { AclOperation, type AclOperationCode, CLUSTER_NAME, ResourceType } from "./acl-binding";
import { appendingTo, requesterOf, ruleOf, type RuleServices, splitBy } from "./authorization-rule";

const TOPIC_DENIED = "Topic authorization failed";
const byName = (allowed: (name: string) => boolean) => ({ name }: { name: string }) => allowed(name);
/** DescribeConfigs' resource types. */
const CONFIG_RESOURCE_TOPIC = 2;
const CONFIG_RESOURCE_BROKER = 4;

export function topicRules({ authorizer, topicExists, autoCreateTopics }: RuleServices) {
  const may = (context: RequestContext, operation: AclOperationCode) => {
    const who = requesterOf(context);
    return (topic: string) => authorizer.authorize(who, operation, ResourceType.TOPIC, topic);
  };
  const mayCreate = (context: RequestContext) => {
    const who = requesterOf(context);
    const onCluster = authorizer.authorize(who, AclOperation.CREATE, ResourceType.CLUSTER, CLUSTER_NAME);
    return (topic: string) => onCluster || authorizer.authorize(who, AclOperation.CREATE, ResourceType.TOPIC, topic);
  };

  return [
    ruleOf(Produce, (request, context) => {
      const who = requesterOf(context);
      const transactional = request.transactionalId === null || authorizer.authorize(who, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactionalId);
      const writable = may(context, AclOperation.WRITE);
      const [served, refused] = splitBy(request.topicData, ({ name }) => transactional && writable(name));
      const errorCode = transactional ? ErrorCode.TOPIC_AUTHORIZATION_FAILED : ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
      return {
        request: { ...request, topicData: served },
        complete: appendingTo(
          "responses",
          refused.map(({ name, partitionData }) => ({ name, partitionResponses: partitionData.map(({ index }) => ({ index, errorCode, baseOffset: -1n, errorMessage: null })) })),
        ),
      };
    }),

    ruleOf(Fetch, (request, context) => {
      // A replica's fetch (replicaId >= 0) is the cluster's own business; this broker has none, so only a forged one asks.
      const who = requesterOf(context);
      const readable = request.replicaId >= 0 ? () => authorizer.authorize(who, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME) : may(context, AclOperation.READ);
      const [served, refused] = splitBy(request.topics, ({ topic }) => readable(topic));
      return {
        // Refused partitions are errors, and a fetch with errors answers at once.
        request: { ...request, topics: served, maxWaitMs: refused.length > 0 ? 0 : request.maxWaitMs },
        complete: appendingTo(
          "responses",
          refused.map(({ topic, partitions }) => ({
            topic,
            partitions: partitions.map(({ partition }) => ({
              partitionIndex: partition,
              errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED,
              highWatermark: -1n,
              lastStableOffset: -1n,
              logStartOffset: -1n,
              records: ChunkedBytes.EMPTY,
            })),
          })),
        ),
      };
    }),

    ruleOf(ListOffsets, (request, context) => {
      const [served, refused] = splitBy(request.topics, byName(may(context, AclOperation.DESCRIBE)));
      return {
        request: { ...request, topics: served },
        complete: appendingTo(
          "topics",
          refused.map(({ name, partitions }) => ({
            name,
            partitions: partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, oldStyleOffsets: [], timestamp: -1n, offset: -1n })),
          })),
        ),
      };
    }),

    ruleOf(Metadata, (request, context) => {
      const describable = may(context, AclOperation.DESCRIBE);
      const everyTopic = request.topics === null || (context.apiVersion === 0 && request.topics.length === 0);
      if (everyTopic) return { request, complete: (response) => response && { ...response, topics: response.topics.filter(({ name }) => describable(name)) } };
      const creatable = mayCreate(context);
      const autoCreating = autoCreateTopics && request.allowAutoTopicCreation;
      const [served, refused] = splitBy(request.topics!, ({ name }) => describable(name) && (!autoCreating || topicExists(name) || creatable(name)));
      const servedNames = new Set(served.map(({ name }) => name));
      return {
        request: { ...request, topics: served },
        // At v0 an empty list asks for every topic: only the ones asked for are kept.
        complete: (response) =>
          response && {
            ...response,
            topics: [
              ...response.topics.filter(({ name }) => servedNames.has(name)),
              ...refused.map(({ name }) => ({ errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, name, partitions: [] })),
            ],
          },
      };
    }),

    ruleOf(CreateTopics, (request, context) => {
      const [served, refused] = splitBy(request.topics, byName(mayCreate(context)));
      return {
        request: { ...request, topics: served },
        complete: appendingTo("topics", refused.map(({ name }) => ({ name, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: TOPIC_DENIED }))),
      };
    }),

    ruleOf(DeleteTopics, (request, context) => {
      const [served, refused] = splitBy(request.topicNames, may(context, AclOperation.DELETE));
      return {
        request: { ...request, topicNames: served },
        complete: appendingTo("responses", refused.map((name) => ({ name, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED }))),
      };
    }),

    ruleOf(CreatePartitions, (request, context) => {
      const [served, refused] = splitBy(request.topics, byName(may(context, AclOperation.ALTER)));
      return {
        request: { ...request, topics: served },
        complete: appendingTo("results", refused.map(({ name }) => ({ name, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED, errorMessage: TOPIC_DENIED }))),
      };
    }),

    ruleOf(DeleteRecords, (request, context) => {
      const [served, refused] = splitBy(request.topics, byName(may(context, AclOperation.DELETE)));
      return {
        request: { ...request, topics: served },
        complete: appendingTo(
          "topics",
          refused.map(({ name, partitions }) => ({ name, partitions: partitions.map(({ partitionIndex }) => ({ partitionIndex, lowWatermark: -1n, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED })) })),
        ),
      };
    }),

    ruleOf(DescribeConfigs, (request, context) => {
      const who = requesterOf(context);
      const refusal = ({ resourceType, resourceName }: { resourceType: number; resourceName: string }) => {
        if (resourceType === CONFIG_RESOURCE_TOPIC && !authorizer.authorize(who, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, resourceName)) return ErrorCode.TOPIC_AUTHORIZATION_FAILED;
        if (resourceType === CONFIG_RESOURCE_BROKER && !authorizer.authorize(who, AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER, CLUSTER_NAME)) return ErrorCode.CLUSTER_AUTHORIZATION_FAILED;
        return undefined;
      };
      const [served, refused] = splitBy(request.resources, (resource) => refusal(resource) === undefined);
      return {
        request: { ...request, resources: served },
        complete: appendingTo(
          "results",
          refused.map((resource) => ({ errorCode: refusal(resource)!, errorMessage: "Authorization failed", resourceType: resource.resourceType, resourceName: resource.resourceName, configs: [] })),
        ),
      };
    }),
  ];
}
