/**
 * The partition assignor of a streams application. Each member's subscription carries its
 * `application.server`; the leader assigns whole tasks (the same partition of every topic of a
 * sub-topology, so co-partitioned sources stay together), spreading partition numbers over the members.
 * A member learns only its own assignment, so the group's layout is read back from DescribeGroups (see
 * `decodeGroupMembers`). Both are encoded as every Kafka consumer encodes them (the consumer protocol). Each member's
 * standby tasks (see standby-placement) travel in its assignment's user data, as Kafka Streams carries them.
 */
import type { GroupAssignor, GroupMemberDescription } from "../../../kafka-client";
import { decodeAssignment, decodeAssignmentUserData, decodeSubscription, encodeAssignment, encodeSubscription } from "../../../kafka-protocol";
import { parseTaskId, taskIdOf, type CompiledTopology } from "../../engine/compiled-topology";
import { placeStandbys } from "./standby-placement";

export const STREAMS_ASSIGNOR_NAME = "sluice-streams";

export interface MemberInfo {
  server: string | null;
}

/** What an assignment's user data holds for its member. */
interface AssignmentInfo {
  /** Task ids. */
  standby: string[];
}

export interface DecodedMember {
  memberId: string;
  clientId: string;
  server: string | null;
  assignment: Record<string, number[]>;
  /** Its standby task ids. */
  standbyTasks: string[];
}

/**
 * `standbyReplicas`: `num.standby.replicas`; `standbyAssigned` hears this member's standby task ids whenever it learns
 * an assignment.
 */
export function streamsAssignor(topology: CompiledTopology, server: string | null, standbyReplicas = 0, standbyAssigned?: (tasks: string[]) => void): GroupAssignor {
  return {
    name: STREAMS_ASSIGNOR_NAME,
    subscription: () => encodeSubscription(topology.sourceTopics(), Buffer.from(JSON.stringify({ server } satisfies MemberInfo))),
    assign: async (members, partitionCount) => {
      const memberIds = members.map((member) => member.memberId).sort();
      const assignments = new Map<string, Record<string, number[]>>(memberIds.map((id) => [id, {}]));
      const activeTasks = new Map<string, string[]>(memberIds.map((id) => [id, []]));
      for (const sub of topology.subTopologies) {
        const counts = sub.sourceTopics.map((topic) => partitionCount(topic) ?? 0);
        const tasks = Math.max(0, ...counts);
        for (let partition = 0; partition < tasks; partition++) {
          const ownerId = memberIds[partition % memberIds.length];
          const owner = assignments.get(ownerId)!;
          activeTasks.get(ownerId)!.push(taskIdOf(sub.id, partition));
          sub.sourceTopics.forEach((topic, index) => {
            if (partition < counts[index]) (owner[topic] ??= []).push(partition);
          });
        }
      }
      const standbys = placeStandbys(activeTasks, standbyReplicas, (task) => topology.loggedStoresOf(parseTaskId(task).subTopologyId).length > 0);
      return new Map(memberIds.map((memberId) => [memberId, encodeAssignment(assignments.get(memberId)!, encodeAssignmentInfo(standbys.get(memberId)!))]));
    },
    partitionsOf: (assignment) => {
      standbyAssigned?.(standbyTasksOf(assignment));
      return decodeAssignment(assignment);
    },
  };
}

function encodeAssignmentInfo(standby: string[]): Buffer | null {
  return standby.length === 0 ? null : Buffer.from(JSON.stringify({ standby } satisfies AssignmentInfo));
}

/** The standby task ids an assignment gives its member; none in an assignment without user data. */
export function standbyTasksOf(assignment: Buffer): string[] {
  const userData = decodeAssignmentUserData(assignment);
  return userData?.length ? (JSON.parse(userData.toString()) as AssignmentInfo).standby : [];
}

/** Reads each member's server and assignment from a DescribeGroups answer. */
export function decodeGroupMembers(members: readonly GroupMemberDescription[]): DecodedMember[] {
  return members.map((member) => {
    let server: string | null = null;
    let assignment: Record<string, number[]> = {};
    let standbyTasks: string[] = [];
    try {
      const userData = decodeSubscription(member.metadata).userData;
      server = userData?.length ? (JSON.parse(userData.toString()) as MemberInfo).server : null;
    } catch {
      server = null;
    }
    try {
      assignment = decodeAssignment(member.assignment);
      standbyTasks = standbyTasksOf(member.assignment);
    } catch {
      assignment = {};
    }
    return { memberId: member.memberId, clientId: member.clientId, server, assignment, standbyTasks };
  });
}
