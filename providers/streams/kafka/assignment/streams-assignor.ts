/**
 * The partition assignor of a streams application. Each member's subscription carries its
 * `application.server`; the leader assigns whole tasks (the same partition of every topic of a
 * sub-topology, so co-partitioned sources stay together), spreading partition numbers over the members.
 * A member learns only its own assignment, so the group's layout is read back from DescribeGroups (see
 * `decodeGroupMembers`). Both are encoded as every Kafka consumer encodes them (the consumer protocol).
 */
import type { GroupAssignor, GroupMemberDescription } from "../../../kafka-client";
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription } from "../../../kafka-protocol";
import type { CompiledTopology } from "../../engine/compiled-topology";

export const STREAMS_ASSIGNOR_NAME = "sluice-streams";

export interface MemberInfo {
  server: string | null;
}

export interface DecodedMember {
  memberId: string;
  clientId: string;
  server: string | null;
  assignment: Record<string, number[]>;
}

export function streamsAssignor(topology: CompiledTopology, server: string | null): GroupAssignor {
  return {
    name: STREAMS_ASSIGNOR_NAME,
    subscription: () => encodeSubscription(topology.sourceTopics(), Buffer.from(JSON.stringify({ server } satisfies MemberInfo))),
    assign: async (members, partitionCount) => {
      const memberIds = members.map((member) => member.memberId).sort();
      const assignments = new Map<string, Record<string, number[]>>(memberIds.map((id) => [id, {}]));
      for (const sub of topology.subTopologies) {
        const counts = sub.sourceTopics.map((topic) => partitionCount(topic) ?? 0);
        const tasks = Math.max(0, ...counts);
        for (let partition = 0; partition < tasks; partition++) {
          const owner = assignments.get(memberIds[partition % memberIds.length])!;
          sub.sourceTopics.forEach((topic, index) => {
            if (partition < counts[index]) (owner[topic] ??= []).push(partition);
          });
        }
      }
      return new Map(memberIds.map((memberId) => [memberId, encodeAssignment(assignments.get(memberId)!)]));
    },
    partitionsOf: decodeAssignment,
  };
}

/** Reads each member's server and assignment from a DescribeGroups answer. */
export function decodeGroupMembers(members: readonly GroupMemberDescription[]): DecodedMember[] {
  return members.map((member) => {
    let server: string | null = null;
    let assignment: Record<string, number[]> = {};
    try {
      const userData = decodeSubscription(member.metadata).userData;
      server = userData?.length ? (JSON.parse(userData.toString()) as MemberInfo).server : null;
    } catch {
      server = null;
    }
    try {
      assignment = decodeAssignment(member.assignment);
    } catch {
      assignment = {};
    }
    return { memberId: member.memberId, clientId: member.clientId, server, assignment };
  });
}
