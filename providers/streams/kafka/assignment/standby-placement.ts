/**
 * Where the standby replicas of a group's tasks go (Kafka Streams' `num.standby.replicas`): given each member's
 * active tasks, each task gets up to `replicas` standbys, each on a member that neither owns it actively nor holds
 * another standby of it. A task's replicas go to the members with the fewest standbys so far (the first by member id
 * among equals). The tasks are placed taking each member's first active task, then each one's second, and so on: a
 * member cannot hold its own tasks' standbys, so placing one member's tasks in a row would leave it short at the end.
 * With fewer members than replicas + 1, a task gets as many standbys as there are other members.
 */
import { byTaskId } from "../../engine/compiled-topology";

/**
 * Member id → its standby task ids, for every member of `active` (an empty list for a member with none). Only the
 * tasks `stateful` holds get standbys (a stateless task has nothing to keep warm).
 */
export function placeStandbys(active: ReadonlyMap<string, readonly string[]>, replicas: number, stateful: (task: string) => boolean = () => true): Map<string, string[]> {
  const members = [...active.keys()].sort();
  const standbys = new Map<string, string[]>(members.map((member) => [member, []]));
  if (replicas <= 0) return standbys;
  for (const { task, owner } of interleaved(members, active, stateful)) {
    const holders = new Set([owner]);
    for (let replica = 0; replica < replicas; replica++) {
      const candidates = members.filter((member) => !holders.has(member));
      if (candidates.length === 0) break;
      const chosen = candidates.reduce((best, member) => (standbys.get(member)!.length < standbys.get(best)!.length ? member : best));
      standbys.get(chosen)!.push(task);
      holders.add(chosen);
    }
  }
  return standbys;
}

/** The `stateful` tasks with their owners: every member's first task (in task order), then every member's second, and so on. */
function interleaved(members: readonly string[], active: ReadonlyMap<string, readonly string[]>, stateful: (task: string) => boolean): { task: string; owner: string }[] {
  const lists = members.map((owner) => active.get(owner)!.filter(stateful).sort(byTaskId).map((task) => ({ task, owner })));
  const rounds = Math.max(0, ...lists.map((list) => list.length));
  return Array.from({ length: rounds }, (_, rank) => lists.flatMap((list) => list.slice(rank, rank + 1))).flat();
}
