/**
 * The partition assignor of a streams application. Each member's subscription carries its
 * `application.server` and its instance's process id; the leader assigns whole tasks (the same partition of every
 * topic of a sub-topology, so co-partitioned sources stay together), spreading partition numbers over the instances,
 * then each instance's tasks over its stream threads (see process-placement).
 * A member learns only its own assignment, so the group's layout is read back from DescribeGroups (see
 * `decodeGroupMembers`). Both are encoded as every Kafka consumer encodes them (the consumer protocol). Each member's
 * standby tasks (see standby-placement) travel in its assignment's user data, as Kafka Streams carries them.
 */
import type { GroupAssignor, GroupMemberDescription } from "../../../kafka-client";
import { decodeAssignment, decodeAssignmentUserData, decodeSubscription, encodeAssignment, encodeSubscription } from "../../../kafka-protocol";
import { parseTaskId, taskIdOf, type CompiledTopology } from "../../engine/compiled-topology";
import { placeStandbys } from "./standby-placement";
import { clientsOf, dealOverThreads } from "./process-placement";

export const STREAMS_ASSIGNOR_NAME = "sluice-streams";

export interface MemberInfo {
  server: string | null;
  /** The member's instance (its state dir's process id, as Kafka Streams' SubscriptionInfo carries it); absent from older members. */
  processId?: string;
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
  /** Its instance's process id; undefined for a member that names none. */
  processId: string | undefined;
  assignment: Record<string, number[]>;
  /** Its standby task ids. */
  standbyTasks: string[];
}

/**
 * `standbyReplicas`: `num.standby.replicas`; `standbyAssigned` hears this member's standby task ids whenever it learns
 * an assignment.
 */
export function streamsAssignor(topology: CompiledTopology, member: MemberInfo, standbyReplicas = 0, standbyAssigned?: (tasks: string[]) => void): GroupAssignor {
  return {
    name: STREAMS_ASSIGNOR_NAME,
    subscription: () => encodeSubscription(topology.sourceTopics(), Buffer.from(JSON.stringify(member satisfies MemberInfo))),
    assign: async (members, partitionCount) => {
      const clients = clientsOf(members.map(({ memberId, metadata }) => ({ memberId, processId: memberInfoOf(metadata).processId })));
      const clientIds = [...clients.keys()];
      const clientTasks = new Map<string, string[]>(clientIds.map((id) => [id, []]));
      for (const sub of topology.subTopologies) {
        const tasks = Math.max(0, ...sub.sourceTopics.map((topic) => partitionCount(topic) ?? 0));
        for (let partition = 0; partition < tasks; partition++) clientTasks.get(clientIds[partition % clientIds.length])!.push(taskIdOf(sub.id, partition));
      }
      const active = dealOverThreads(clients, clientTasks);
      const standbys = dealOverThreads(clients, placeStandbys(clientTasks, standbyReplicas, (task) => topology.loggedStoresOf(parseTaskId(task).subTopologyId).length > 0));
      return new Map([...active].map(([memberId, tasks]) => [memberId, encodeAssignment(partitionsOfTasks(tasks, partitionCount), encodeAssignmentInfo(standbys.get(memberId)!))]));
    },
    partitionsOf: (assignment) => {
      standbyAssigned?.(standbyTasksOf(assignment));
      return decodeAssignment(assignment);
    },
  };

  /** The partitions of `tasks` by topic: a task's partition of each source topic of its sub-topology that has it. */
  function partitionsOfTasks(tasks: readonly string[], partitionCount: (topic: string) => number | undefined): Record<string, number[]> {
    const partitions: Record<string, number[]> = {};
    for (const task of tasks) {
      const { subTopologyId, partition } = parseTaskId(task);
      for (const topic of topology.subTopologies[subTopologyId].sourceTopics) if (partition < (partitionCount(topic) ?? 0)) (partitions[topic] ??= []).push(partition);
    }
    for (const list of Object.values(partitions)) list.sort((a, b) => a - b);
    return partitions;
  }
}

/** What a member's subscription says of it; nothing of an unreadable one. */
function memberInfoOf(metadata: Buffer): Partial<MemberInfo> {
  try {
    const userData = decodeSubscription(metadata).userData;
    return userData?.length ? (JSON.parse(userData.toString()) as MemberInfo) : {};
  } catch {
    return {};
  }
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
    const { server = null, processId } = memberInfoOf(member.metadata);
    let assignment: Record<string, number[]> = {};
    let standbyTasks: string[] = [];
    try {
      assignment = decodeAssignment(member.assignment);
      standbyTasks = standbyTasksOf(member.assignment);
    } catch {
      assignment = {};
    }
    return { memberId: member.memberId, clientId: member.clientId, server, processId, assignment, standbyTasks };
  });
}
