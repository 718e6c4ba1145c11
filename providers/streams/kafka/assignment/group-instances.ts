/**
 * The instances of an application as its consumer group shows them (DescribeGroups): each member's
 * `application.server`, assignment and the stores its partitions hold. The members of one instance (its stream
 * threads, which share a process id) are listed as one instance holding all their partitions.
 *
 * A listing the coordinator gave while the group was Stable is kept until this instance joins another
 * generation. No assignment changes unless every member joins again (eager and cooperative alike), so a keyed query
 * routed to another instance does not cost a round trip to the coordinator each time.
 */
import type { ClusterAdmin } from "../../../kafka-client";
import type { InstanceInfo } from "../../../../kernel/contracts/streams/runtime";
import { parseTaskId, type CompiledTopology } from "../../engine/compiled-topology";
import { decodeGroupMembers, type DecodedMember } from "./streams-assignor";

/** What the listing needs of the application's current run. */
export interface GroupMember {
  readonly memberId: string | null;
  readonly generationId: number;
  /** The local instance's process id: its other threads' members are local too. */
  readonly processId?: string;
}

export class GroupInstances {
  private stable?: { memberId: string; generationId: number; instances: readonly InstanceInfo[] };

  constructor(
    private readonly groupId: string,
    private readonly topology: CompiledTopology,
  ) {}

  async list(member: GroupMember, admin: ClusterAdmin): Promise<readonly InstanceInfo[]> {
    const { memberId, generationId } = member;
    const seen = this.stable;
    if (seen && seen.memberId === memberId && seen.generationId === generationId) return seen.instances;
    const group = await admin.describeGroup(this.groupId);
    const instances = byInstance(decodeGroupMembers(group.members))
      .map((decoded) => this.instanceOf(decoded, member))
      .sort((a, b) => String(a.server).localeCompare(String(b.server)));
    const unchanged = member.memberId === memberId && member.generationId === generationId;
    if (group.state === "Stable" && memberId && generationId >= 0 && unchanged) this.stable = { memberId, generationId, instances };
    return instances;
  }

  private instanceOf(member: DecodedMember, local: GroupMember): InstanceInfo {
    const assignments = Object.entries(member.assignment)
      .map(([topic, partitions]) => ({ topic, partitions: [...partitions].sort((a, b) => a - b) }))
      .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
    // Every member of the group holds every global store whole.
    const stores = new Set<string>(this.topology.definition.globalStores.keys());
    for (const { topic, partitions } of assignments) {
      const sub = this.topology.subTopologyOfTopic(topic);
      if (sub !== undefined && partitions.length > 0) for (const store of this.topology.subTopologies[sub].stores) stores.add(store);
    }
    return { server: member.server, memberId: member.memberId, isLocal: member.memberId === local.memberId || (member.processId !== undefined && member.processId === local.processId), stores: [...stores].sort(), assignments, standbyAssignments: this.standbyAssignmentsOf(member.standbyTasks) };
  }

  /** A member's standby tasks as the input partitions they stand for, by topic, like its assignment. */
  private standbyAssignmentsOf(tasks: readonly string[]): InstanceInfo["standbyAssignments"] {
    const byTopic = new Map<string, number[]>();
    for (const task of tasks) {
      const { subTopologyId, partition } = parseTaskId(task);
      for (const topic of this.topology.subTopologies[subTopologyId]?.sourceTopics ?? []) byTopic.set(topic, [...(byTopic.get(topic) ?? []), partition]);
    }
    return [...byTopic]
      .map(([topic, partitions]) => ({ topic, partitions: partitions.sort((a, b) => a - b) }))
      .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
  }
}

/** One entry per instance: the members sharing a process id merged (the first by member id names it), the others as they are. */
function byInstance(members: readonly DecodedMember[]): DecodedMember[] {
  const merged = new Map<string, DecodedMember>();
  for (const member of [...members].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0))) {
    const key = member.processId ?? `member:${member.memberId}`;
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, { ...member, assignment: { ...member.assignment }, standbyTasks: [...member.standbyTasks] });
      continue;
    }
    for (const [topic, partitions] of Object.entries(member.assignment)) seen.assignment[topic] = [...(seen.assignment[topic] ?? []), ...partitions];
    seen.standbyTasks.push(...member.standbyTasks);
  }
  return [...merged.values()];
}
