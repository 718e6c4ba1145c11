/**
 * The coordinator's assignors of the consumer group protocol (KIP-848), by the names Kafka's `group.consumer.assignors`
 * takes: `uniform` spreads every subscribed partition evenly and keeps each where it was when it can; `range` gives
 * each member a contiguous range of every topic it subscribes to, topic by topic (members in member id order).
 * Partitions are named by `partitionKey` (topic id and number); an assignment maps member ids to those keys.
 */

/** One member as an assignor sees it: what it subscribes to (topic ids) and its target assignment so far. */
export interface AssignorMember {
  readonly memberId: string;
  readonly subscribedTopicIds: ReadonlySet<string>;
  readonly previous: ReadonlySet<string>;
}

export interface AssignorTopic {
  readonly topicId: string;
  readonly partitions: number;
}

export type GroupAssignment = Map<string, Set<string>>;

export interface ServerAssignor {
  readonly name: string;
  assign(members: readonly AssignorMember[], topics: readonly AssignorTopic[]): GroupAssignment;
}

export function partitionKey(topicId: string, partition: number): string {
  return `${topicId}:${partition}`;
}

export function parsePartitionKey(key: string): { topicId: string; partition: number } {
  const colon = key.lastIndexOf(":");
  return { topicId: key.slice(0, colon), partition: Number(key.slice(colon + 1)) };
}

const byMemberId = (a: AssignorMember, b: AssignorMember) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0);

/** Even and sticky: members keep their partitions while that stays balanced; the rest go to the least loaded. */
export const uniformAssignor: ServerAssignor = {
  name: "uniform",
  assign(members, topics) {
    const sorted = [...members].sort(byMemberId);
    const assignment: GroupAssignment = new Map(sorted.map((member) => [member.memberId, new Set<string>()]));
    const eligible = new Map<string, AssignorMember[]>();
    for (const { topicId, partitions } of topics) {
      const subscribers = sorted.filter((member) => member.subscribedTopicIds.has(topicId));
      for (let partition = 0; partition < partitions && subscribers.length > 0; partition++) eligible.set(partitionKey(topicId, partition), subscribers);
    }
    const owner = new Map<string, string>();
    const give = (key: string, memberId: string) => {
      const before = owner.get(key);
      if (before !== undefined) assignment.get(before)!.delete(key);
      owner.set(key, memberId);
      assignment.get(memberId)!.add(key);
    };
    // Kept first: a partition stays with the member that had it, if it may still have it.
    for (const member of sorted) {
      for (const key of member.previous) if (!owner.has(key) && eligible.get(key)?.includes(member)) give(key, member.memberId);
    }
    const load = (member: AssignorMember) => assignment.get(member.memberId)!.size;
    const leastLoaded = (candidates: AssignorMember[]) => candidates.reduce((best, member) => (load(member) < load(best) ? member : best));
    for (const [key, candidates] of eligible) if (!owner.has(key)) give(key, leastLoaded(candidates).memberId);
    // Then balanced: a partition moves while its owner has two more than a member that could take it. Each move lowers
    // the sum of squared loads, so this ends.
    for (let moved = true; moved; ) {
      moved = false;
      for (const [key, candidates] of eligible) {
        const current = sorted.find((member) => member.memberId === owner.get(key))!;
        const target = leastLoaded(candidates);
        if (load(current) > load(target) + 1) {
          give(key, target.memberId);
          moved = true;
        }
      }
    }
    return assignment;
  },
};

/** Topic by topic, each subscriber gets a contiguous range; the first `partitions % members` get one more. */
export const rangeAssignor: ServerAssignor = {
  name: "range",
  assign(members, topics) {
    const sorted = [...members].sort(byMemberId);
    const assignment: GroupAssignment = new Map(sorted.map((member) => [member.memberId, new Set<string>()]));
    for (const { topicId, partitions } of topics) {
      const subscribers = sorted.filter((member) => member.subscribedTopicIds.has(topicId));
      let next = 0;
      subscribers.forEach((member, index) => {
        const count = Math.floor(partitions / subscribers.length) + (index < partitions % subscribers.length ? 1 : 0);
        for (let i = 0; i < count; i++) assignment.get(member.memberId)!.add(partitionKey(topicId, next++));
      });
    }
    return assignment;
  },
};

export const SERVER_ASSIGNORS: readonly ServerAssignor[] = [uniformAssignor, rangeAssignor];
