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
 *
 * With high availability (Kafka Streams' HighAvailabilityTaskAssignor, KIP-441) each subscription also carries the
 * member's changelog offset sum of every task it has state for; the leader turns them into lags against the
 * changelogs' ends and moves a stateful task only to an instance that has caught up on it, giving a lagging one a
 * warm-up replica instead (see warmup-placement). When it gave any, the assignment names the time of a probing
 * rebalance, at which the members join again so that caught-up warm-ups take their tasks over. A group with a member
 * whose subscription has no offset sums (an older Sluice) is assigned without warm-ups.
 */
import type { GroupAssignor, GroupMemberDescription } from "../../../kafka-client";
import { decodeAssignment, decodeAssignmentUserData, decodeSubscription, encodeAssignment, encodeSubscription } from "../../../kafka-protocol";
import { parseTaskId, taskIdOf, type CompiledTopology } from "../../engine/compiled-topology";
import { placeStandbys } from "./standby-placement";
import { placeTasks, withholdOwned, type PlacementMember } from "./sticky-placement";
import { clientsOf, placeOverThreads } from "./process-placement";
import { isCaughtUp, lagOf, LATEST_OFFSET, placeWarmups, type WarmupSettings } from "./warmup-placement";

export const STREAMS_ASSIGNOR_NAME = "sluice-streams";

export interface MemberInfo {
  server: string | null;
  /** The member's instance (its state dir's process id, as Kafka Streams' SubscriptionInfo carries it); absent from older members. */
  processId?: string;
  /** The tasks the member held when it joined; absent from members of older Sluice versions. */
  previousTasks?: string[];
  /** The other tasks whose state it has on disk. */
  localTasks?: string[];
  /**
   * Task id → the offset sum of its stores' changelogs as the member's state of it holds them (LATEST_OFFSET for a
   * task it runs), for every task it has state for (Kafka Streams' SubscriptionInfo taskOffsetSums); absent from
   * older members.
   */
  taskOffsetSums?: Record<string, number>;
}

/** What an assignment's user data holds for its member. */
interface AssignmentInfo {
  /** Task ids. */
  standby: string[];
  /** When the members are to join again, a probing rebalance (epoch ms, Kafka Streams' nextScheduledRebalanceMs). */
  probingRebalanceAt?: number;
}

/** What the high-availability assignment needs beyond the sticky one (see warmup-placement). */
export interface HighAvailability extends WarmupSettings {
  /** `probing.rebalance.interval.ms`: how long after an assignment with warm-ups the members join again. */
  readonly probingRebalanceIntervalMs: number;
  /** Leader only: each stateful task's changelog end offsets summed, by task id; undefined when they cannot be read now. */
  changelogEnds(tasks: readonly string[]): Promise<ReadonlyMap<string, number> | undefined>;
  /** Hears, with every assignment this member learns, when it is to join again for a probing rebalance (undefined: never). */
  probingRebalance?(at: number | undefined): void;
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
 * other tasks whose state it has on disk, which the leader prefers it for, and its offset sums. `highAvailability`:
 * warm-up replicas and probing rebalances; absent: the sticky placement alone.
 */
export function streamsAssignor(
  topology: CompiledTopology,
  server: string | null,
  standbyReplicas = 0,
  standbyAssigned?: (tasks: string[]) => void,
  held: () => Pick<MemberInfo, "previousTasks" | "localTasks" | "taskOffsetSums"> = () => ({ previousTasks: [] }),
  processId?: string,
  highAvailability?: HighAvailability,
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
      const clientMembers = [...clients].map(([client, threads]) => ({
        memberId: client,
        previousTasks: threads.flatMap((thread) => placementMember(thread).previousTasks),
        localTasks: threads.flatMap((thread) => placementMember(thread).localTasks ?? []),
      }));
      const stateful = (task: string) => topology.loggedStoresOf(parseTaskId(task).subTopologyId).length > 0;
      const lagsKnown = highAvailability !== undefined && [...infos.values()].every((info) => info.taskOffsetSums !== undefined);
      const lag = lagsKnown ? await clientLags(clients, infos, tasks.filter(stateful), highAvailability) : undefined;
      const { active: byClient, warmups } =
        lag === undefined
          ? { active: placeTasks(tasks, clientMembers), warmups: new Map<string, string[]>() }
          : placeWarmups(placeTasks(tasks, withCurrentState(clientMembers, lag, highAvailability!)), lag, previousOwners(clientMembers), highAvailability!);
      const placement = withholdOwned(
        placeOverThreads(clients, byClient, placementMember),
        new Map(members.map(({ memberId, metadata }) => [memberId, ownedTasksOf(topology, metadata)])),
      );
      // Standbys go to instances (never the active task's), then to their threads.
      const placedOnClients = new Map([...clients].map(([client, threads]) => [client, threads.flatMap((thread) => placement.get(thread)!)]));
      const clientStandbys = placeStandbys(placedOnClients, standbyReplicas, stateful);
      for (const [client, tasks] of warmups) clientStandbys.set(client, [...new Set([...clientStandbys.get(client)!, ...tasks])]);
      const standbys = placeOverThreads(clients, clientStandbys, (memberId) => ({ memberId, previousTasks: [] }));
      const probingRebalanceAt = [...warmups.values()].some((tasks) => tasks.length > 0) ? Date.now() + highAvailability!.probingRebalanceIntervalMs : undefined;
      return new Map([...placement].map(([memberId, ids]) => [memberId, encodeAssignment(partitionsOfTasks(ids, partitionCount), encodeAssignmentInfo({ standby: standbys.get(memberId)!, probingRebalanceAt }))]));
    },
    partitionsOf: (assignment) => {
      const info = assignmentInfoOf(assignment);
      standbyAssigned?.(info.standby);
      highAvailability?.probingRebalance?.(info.probingRebalanceAt);
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

/**
 * Each client's lag on each stateful task (see warmup-placement lagOf): its offset sum is its threads' best, LATEST_OFFSET
 * when one runs the task; undefined (no lag known) when the changelogs' ends cannot be read now, and the sticky placement
 * stands, as for a group with older members.
 */
async function clientLags(
  clients: ReadonlyMap<string, readonly string[]>,
  infos: ReadonlyMap<string, MemberInfo>,
  statefulTasks: readonly string[],
  settings: HighAvailability,
): Promise<((client: string, task: string) => number | undefined) | undefined> {
  const ends = await settings.changelogEnds(statefulTasks);
  if (ends === undefined) return undefined;
  const sums = new Map<string, Map<string, number>>();
  for (const [client, threads] of clients) {
    const best = new Map<string, number>();
    for (const [task, sum] of threads.flatMap((thread) => Object.entries(infos.get(thread)!.taskOffsetSums ?? {}))) best.set(task, furthest(best.get(task), sum));
    sums.set(client, best);
  }
  return (client, task) => (ends.has(task) ? lagOf(sums.get(client)!.get(task), ends.get(task)!) : undefined);
}

/** The client that ran each task before (the first to claim it). */
function previousOwners(clientMembers: readonly PlacementMember[]): Map<string, string> {
  const previousOwner = new Map<string, string>();
  for (const { memberId, previousTasks } of clientMembers) for (const task of previousTasks) if (!previousOwner.has(task)) previousOwner.set(task, memberId);
  return previousOwner;
}

/**
 * The clients with only the state on disk they have caught up on: that state draws a task to its client (a restarted
 * instance gets back the tasks whose state it kept); stale state, such as that left by a brief assignment long ago,
 * would only earn its client a warm-up in place of the task, and cost another client's current state its turn.
 */
function withCurrentState(clientMembers: readonly PlacementMember[], lag: (client: string, task: string) => number | undefined, settings: WarmupSettings): PlacementMember[] {
  return clientMembers.map((member) => ({ ...member, localTasks: member.localTasks?.filter((task) => isCaughtUp(lag(member.memberId, task), settings)) }));
}

/** Of two offset sums of one task, the one further along: LATEST_OFFSET is as far as a sum goes. */
function furthest(seen: number | undefined, sum: number): number {
  if (seen === undefined) return sum;
  return seen === LATEST_OFFSET || sum === LATEST_OFFSET ? LATEST_OFFSET : Math.max(seen, sum);
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

function encodeAssignmentInfo(info: AssignmentInfo): Buffer | null {
  return info.standby.length === 0 && info.probingRebalanceAt === undefined ? null : Buffer.from(JSON.stringify(info));
}

/** What an assignment's user data tells its member; no standbys and no probing rebalance in one without. */
function assignmentInfoOf(assignment: Buffer): AssignmentInfo {
  const userData = decodeAssignmentUserData(assignment);
  return userData?.length ? (JSON.parse(userData.toString()) as AssignmentInfo) : { standby: [] };
}

/** The standby task ids (warm-ups among them) an assignment gives its member. */
export function standbyTasksOf(assignment: Buffer): string[] {
  return assignmentInfoOf(assignment).standby;
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
