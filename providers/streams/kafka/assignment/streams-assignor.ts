/**
 * The partition assignor of a streams application. Each member's subscription carries its
 * `application.server`, its instance's process id and the tasks it held (Kafka Streams' SubscriptionInfo processId
 * and prevTasks); the leader assigns whole tasks (the same partition of every topic of a sub-topology, so
 * co-partitioned sources stay together) to instances first — the members sharing a process id, one instance's stream
 * threads — then each instance's tasks to its threads (see process-placement); at both steps each task stays with its
 * previous owner while the load stays balanced (see sticky-placement). Under the cooperative protocol a member's
 * subscription also names the partitions it keeps meanwhile, and a task one member still owns is given to no other
 * (not even another thread of its instance) in the same rebalance.
 * A member learns only its own assignment, so the group's layout is read back from DescribeGroups (see
 * `decodeGroupMembers`). Both are encoded as every Kafka consumer encodes them (the consumer protocol). Each member's
 * standby tasks (see standby-placement) travel in its assignment's user data, as Kafka Streams carries them.
 */
import type { GroupAssignor, GroupMemberDescription } from "../../../kafka-client";
import { decodeAssignment, decodeAssignmentUserData, decodeSubscription, encodeAssignment, encodeSubscription } from "../../../kafka-protocol";
import { parseTaskId, taskIdOf, type CompiledTopology } from "../../engine/compiled-topology";
import { placeStandbys } from "./standby-placement";
import { placeTasks, withholdOwned } from "./sticky-placement";
import { clientsOf, placeOverThreads } from "./process-placement";

export const STREAMS_ASSIGNOR_NAME = "sluice-streams";

export interface MemberInfo {
  server: string | null;
  /** The member's instance (its state dir's process id, as Kafka Streams' SubscriptionInfo carries it); absent from older members. */
  processId?: string;
  /** The tasks the member held when it joined; absent from members of older Sluice versions. */
  previousTasks?: string[];
  /** The other tasks whose state it has on disk. */
  localTasks?: string[];
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
 * an assignment. `held`: the tasks this member holds as it joins, which the leader keeps with it where it can, and the
 * other tasks whose state it has on disk, which the leader prefers it for.
 */
export function streamsAssignor(
  topology: CompiledTopology,
  server: string | null,
  standbyReplicas = 0,
  standbyAssigned?: (tasks: string[]) => void,
  held: () => { previousTasks: string[]; localTasks?: string[] } = () => ({ previousTasks: [] }),
  processId?: string,
): GroupAssignor {
  return {
    name: STREAMS_ASSIGNOR_NAME,
    subscription: (owned) => encodeSubscription(topology.sourceTopics(), Buffer.from(JSON.stringify({ server, processId, ...held() } satisfies MemberInfo)), owned),
    assign: async (members, partitionCount) => {
      const tasks: string[] = [];
      for (const [id, sub] of topology.subTopologies.entries()) {
        const count = Math.max(0, ...sub.sourceTopics.map((topic) => partitionCount(topic) ?? 0));
        for (let partition = 0; partition < count; partition++) tasks.push(taskIdOf(id, partition));
      }
      const infos = new Map(members.map(({ memberId, metadata }) => [memberId, memberInfoOf(metadata)]));
      const placementMember = (memberId: string) => ({ memberId, previousTasks: infos.get(memberId)!.previousTasks ?? [], localTasks: infos.get(memberId)!.localTasks });
      const clients = clientsOf(members.map(({ memberId }) => ({ memberId, processId: infos.get(memberId)!.processId })));
      // An instance claims what any of its threads held.
      const byClient = placeTasks(
        tasks,
        [...clients].map(([client, threads]) => ({
          memberId: client,
          previousTasks: threads.flatMap((thread) => placementMember(thread).previousTasks),
          localTasks: threads.flatMap((thread) => placementMember(thread).localTasks ?? []),
        })),
      );
      const placement = withholdOwned(
        placeOverThreads(clients, byClient, placementMember),
        new Map(members.map(({ memberId, metadata }) => [memberId, ownedTasksOf(topology, metadata)])),
      );
      // Standbys go to instances (never the active task's), then to their threads.
      const placedOnClients = new Map([...clients].map(([client, threads]) => [client, threads.flatMap((thread) => placement.get(thread)!)]));
      const clientStandbys = placeStandbys(placedOnClients, standbyReplicas, (task) => topology.loggedStoresOf(parseTaskId(task).subTopologyId).length > 0);
      const standbys = placeOverThreads(clients, clientStandbys, (memberId) => ({ memberId, previousTasks: [] }));
      return new Map([...placement].map(([memberId, ids]) => [memberId, encodeAssignment(partitionsOfTasks(ids, partitionCount), encodeAssignmentInfo(standbys.get(memberId)!))]));
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

/** The tasks whose partitions a cooperative member's subscription says it keeps through the rebalance. */
function ownedTasksOf(topology: CompiledTopology, metadata: Buffer): string[] {
  const tasks = new Set<string>();
  try {
    for (const { topic, partitions } of decodeSubscription(metadata).ownedPartitions) {
      const sub = topology.subTopologyOfTopic(topic);
      if (sub !== undefined) for (const partition of partitions) tasks.add(taskIdOf(sub, partition));
    }
  } catch {
    // An unreadable subscription owns nothing.
  }
  return [...tasks];
}

/** What a member's subscription says of it; nothing readable is a member with no server and no previous tasks. */
function memberInfoOf(metadata: Buffer): MemberInfo {
  try {
    const userData = decodeSubscription(metadata).userData;
    return userData?.length ? (JSON.parse(userData.toString()) as MemberInfo) : { server: null };
  } catch {
    return { server: null };
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
