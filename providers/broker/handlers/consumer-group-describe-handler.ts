import { ErrorCode } from "../../kafka-protocol/error-codes";
import { ConsumerGroupDescribe } from "../../kafka-protocol/messages/consumer-group-describe";
import type { ResponseOf } from "../../kafka-protocol/schema";
import type { TopicPartitionsById } from "../group/consumer-protocol-coordinator";
import { defineHandler, type RegisteredHandler } from "./api-handler";
import type { BrokerServices } from "./broker-services";

type DescribedGroup = ResponseOf<typeof ConsumerGroupDescribe>["groups"][number];

/**
 * Groups of the consumer group protocol, with their members' assignments by topic id and name. A classic group, or
 * none, answers GROUP_ID_NOT_FOUND, as Kafka does (its AdminClient then describes the group with DescribeGroups).
 */
export function consumerGroupDescribeHandler({ consumerGroups, coordinator, store }: BrokerServices): RegisteredHandler {
  const refused = (groupId: string, errorCode: number, errorMessage: string): DescribedGroup => ({
    errorCode,
    errorMessage,
    groupId,
    groupState: "Dead",
    groupEpoch: -1,
    assignmentEpoch: -1,
    assignorName: "",
    members: [],
  });

  return defineHandler(ConsumerGroupDescribe, (request) => {
    const names = new Map([...store.topics()].map(([name, { topicId }]) => [topicId, name]));
    const named = (partitions: TopicPartitionsById) => ({
      topicPartitions: partitions.map(({ topicId, partitions: list }) => ({ topicId, topicName: names.get(topicId) ?? "", partitions: list })),
    });
    const describe = (groupId: string): DescribedGroup => {
      if (groupId === "") return refused(groupId, ErrorCode.INVALID_GROUP_ID, "Group id can't be empty.");
      const group = consumerGroups.describe(groupId);
      if (group === undefined) {
        const classic = coordinator.list().some((listed) => listed.groupId === groupId);
        return refused(groupId, ErrorCode.GROUP_ID_NOT_FOUND, classic ? `Group ${groupId} is not a consumer group.` : `Group ${groupId} not found.`);
      }
      return {
        errorCode: ErrorCode.NONE,
        errorMessage: null,
        groupId,
        groupState: group.groupState,
        groupEpoch: group.groupEpoch,
        assignmentEpoch: group.assignmentEpoch,
        assignorName: group.assignorName,
        members: group.members.map((member) => ({
          ...member,
          subscribedTopicRegex: null,
          assignment: named(member.assignment),
          targetAssignment: named(member.targetAssignment),
        })),
      };
    };
    return { groups: request.groupIds.map(describe) };
  });
}
