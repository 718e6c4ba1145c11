/**
 * Authorization of the consumer-group APIs, as Kafka's KafkaApis checks them: READ on the group to join, sync,
 * heartbeat, leave and commit (and READ on each committed topic), DESCRIBE to fetch offsets (of the topics it may
 * describe), find the coordinator and describe the group, READ on the group and DESCRIBE on each subscribed topic to
 * heartbeat in the consumer group protocol (KIP-848), DESCRIBE on the group and on its members' topics to describe it there, DELETE to delete it or its offsets (with READ on each
 * topic); ListGroups lists every group with DESCRIBE on the cluster, else the groups the requester may describe.
 */
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { ConsumerGroupDescribe } from "../../kafka-protocol/messages/consumer-group-describe";
import { ConsumerGroupHeartbeat } from "../../kafka-protocol/messages/consumer-group-heartbeat";
import { DeleteGroups } from "../../kafka-protocol/messages/delete-groups";
import { DescribeGroups } from "../../kafka-protocol/messages/describe-groups";
import { FindCoordinator } from "../../kafka-protocol/messages/find-coordinator";
import { Heartbeat } from "../../kafka-protocol/messages/heartbeat";
import { JoinGroup } from "../../kafka-protocol/messages/join-group";
import { LeaveGroup } from "../../kafka-protocol/messages/leave-group";
import { ListGroups } from "../../kafka-protocol/messages/list-groups";
import { OffsetCommit } from "../../kafka-protocol/messages/offset-commit";
import { OffsetDelete } from "../../kafka-protocol/messages/offset-delete";
import { OffsetFetch } from "../../kafka-protocol/messages/offset-fetch";
import { SyncGroup } from "../../kafka-protocol/messages/sync-group";
import type { RequestContext } from "../handlers/api-handler";
import { AclOperation, type AclOperationCode, CLUSTER_NAME, ResourceType } from "./acl-binding";
import { appendingTo, refusedWith, requesterOf, ruleOf, servedWhole, type RuleServices, splitBy } from "./authorization-rule";

const GROUP_DENIED = ErrorCode.GROUP_AUTHORIZATION_FAILED;
/** FindCoordinator's key types. */
const TRANSACTION_KEY = 1;

export function groupRules({ authorizer }: RuleServices) {
  const may = (context: RequestContext, operation: AclOperationCode, resourceType: typeof ResourceType.GROUP | typeof ResourceType.TOPIC = ResourceType.GROUP) => {
    const who = requesterOf(context);
    return (name: string) => authorizer.authorize(who, operation, resourceType, name);
  };

  return [
    ruleOf(JoinGroup, (request, context) =>
      may(context, AclOperation.READ)(request.groupId)
        ? servedWhole(request)
        : refusedWith({ errorCode: GROUP_DENIED, generationId: -1, protocolName: "", leader: "", memberId: "", members: [] }),
    ),
    ruleOf(SyncGroup, (request, context) => (may(context, AclOperation.READ)(request.groupId) ? servedWhole(request) : refusedWith({ errorCode: GROUP_DENIED, assignment: Buffer.alloc(0) }))),
    ruleOf(Heartbeat, (request, context) => (may(context, AclOperation.READ)(request.groupId) ? servedWhole(request) : refusedWith({ errorCode: GROUP_DENIED }))),
    ruleOf(LeaveGroup, (request, context) => (may(context, AclOperation.READ)(request.groupId) ? servedWhole(request) : refusedWith({ errorCode: GROUP_DENIED, members: [] }))),

    ruleOf(ConsumerGroupHeartbeat, (request, context) => {
      const refused = (errorCode: number, errorMessage: string) => refusedWith({ errorCode, errorMessage, memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null });
      if (!may(context, AclOperation.READ)(request.groupId)) return refused(GROUP_DENIED, "Group authorization failed.");
      const describable = may(context, AclOperation.DESCRIBE, ResourceType.TOPIC);
      const hidden = (request.subscribedTopicNames ?? []).filter((name) => !describable(name));
      if (hidden.length > 0) return refused(ErrorCode.TOPIC_AUTHORIZATION_FAILED, `Topic authorization failed for topics: ${hidden.join(", ")}.`);
      return servedWhole(request);
    }),

    ruleOf(OffsetCommit, (request, context) => {
      const groupAllowed = may(context, AclOperation.READ)(request.groupId);
      const readable = may(context, AclOperation.READ, ResourceType.TOPIC);
      const [served, refused] = splitBy(request.topics, ({ name }) => groupAllowed && readable(name));
      const errorCode = groupAllowed ? ErrorCode.TOPIC_AUTHORIZATION_FAILED : GROUP_DENIED;
      const answered = refused.map(({ name, partitions }) => ({ name, partitions: partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode })) }));
      if (!groupAllowed) return refusedWith({ topics: answered });
      return { request: { ...request, topics: served }, complete: appendingTo("topics", answered) };
    }),

    ruleOf(OffsetFetch, (request, context) => {
      const unknown = (errorCode: number) => (partitionIndex: number) => ({ partitionIndex, committedOffset: -1n, metadata: "", errorCode });
      const asked = request.topics ?? [];
      if (!may(context, AclOperation.DESCRIBE)(request.groupId)) {
        return refusedWith({ errorCode: GROUP_DENIED, topics: asked.map(({ name, partitionIndexes }) => ({ name, partitions: partitionIndexes.map(unknown(GROUP_DENIED)) })) });
      }
      const describable = may(context, AclOperation.DESCRIBE, ResourceType.TOPIC);
      if (request.topics === null) return { request, complete: (response) => response && { ...response, topics: response.topics.filter(({ name }) => describable(name)) } };
      const [served, refused] = splitBy(asked, ({ name }) => describable(name));
      const answered = refused.map(({ name, partitionIndexes }) => ({ name, partitions: partitionIndexes.map(unknown(ErrorCode.TOPIC_AUTHORIZATION_FAILED)) }));
      return { request: { ...request, topics: served }, complete: appendingTo("topics", answered) };
    }),

    ruleOf(FindCoordinator, (request, context) => {
      const transactional = request.keyType === TRANSACTION_KEY;
      const allowed = authorizer.authorize(requesterOf(context), AclOperation.DESCRIBE, transactional ? ResourceType.TRANSACTIONAL_ID : ResourceType.GROUP, request.key);
      if (allowed) return servedWhole(request);
      const errorCode = transactional ? ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED : GROUP_DENIED;
      return refusedWith({ errorCode, errorMessage: transactional ? "Transactional Id authorization failed" : "Group authorization failed", nodeId: -1, host: "", port: -1 });
    }),

    ruleOf(DescribeGroups, (request, context) => {
      const [served, refused] = splitBy(request.groups, may(context, AclOperation.DESCRIBE));
      const answered = refused.map((groupId) => ({ errorCode: GROUP_DENIED, groupId, groupState: "", protocolType: "", protocolData: "", members: [] }));
      return { request: { ...request, groups: served }, complete: appendingTo("groups", answered) };
    }),

    ruleOf(ConsumerGroupDescribe, (request, context) => {
      const [served, refused] = splitBy(request.groupIds, may(context, AclOperation.DESCRIBE));
      const describable = may(context, AclOperation.DESCRIBE, ResourceType.TOPIC);
      const denied = (groupId: string, errorCode: number, errorMessage: string) => ({ errorCode, errorMessage, groupId, groupState: "", groupEpoch: -1, assignmentEpoch: -1, assignorName: "", members: [] });
      const answered = refused.map((groupId) => denied(groupId, GROUP_DENIED, "Group authorization failed."));
      // A group whose members name a topic the requester may not describe is not shown (Kafka 4).
      const hidingTopics = (group: { groupId: string; members: { subscribedTopicNames: string[]; assignment: { topicPartitions: { topicName: string }[] } }[] }) =>
        group.members.some((member) => [...member.subscribedTopicNames, ...member.assignment.topicPartitions.map(({ topicName }) => topicName)].some((name) => !describable(name)));
      return {
        request: { ...request, groupIds: served },
        complete: (response) =>
          response && {
            ...response,
            groups: [
              ...response.groups.map((group) => (hidingTopics(group) ? denied(group.groupId, ErrorCode.TOPIC_AUTHORIZATION_FAILED, "The group has subscribed topics that are not authorized.") : group)),
              ...answered,
            ],
          },
      };
    }),

    ruleOf(ListGroups, (request, context) => {
      if (authorizer.authorize(requesterOf(context), AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME)) return servedWhole(request);
      const describable = may(context, AclOperation.DESCRIBE);
      return { request, complete: (response) => response && { ...response, groups: response.groups.filter(({ groupId }) => describable(groupId)) } };
    }),

    ruleOf(OffsetDelete, (request, context) => {
      if (!may(context, AclOperation.DELETE)(request.groupId)) return refusedWith({ errorCode: GROUP_DENIED, topics: [] });
      const readable = may(context, AclOperation.READ, ResourceType.TOPIC);
      const [served, refused] = splitBy(request.topics, ({ name }) => readable(name));
      const answered = refused.map(({ name, partitions }) => ({ name, partitions: partitions.map(({ partitionIndex }) => ({ partitionIndex, errorCode: ErrorCode.TOPIC_AUTHORIZATION_FAILED })) }));
      return { request: { ...request, topics: served }, complete: appendingTo("topics", answered) };
    }),

    ruleOf(DeleteGroups, (request, context) => {
      const [served, refused] = splitBy(request.groupsNames, may(context, AclOperation.DELETE));
      return {
        request: { ...request, groupsNames: served },
        complete: appendingTo("results", refused.map((groupId) => ({ groupId, errorCode: GROUP_DENIED }))),
      };
    }),
  ];
}
