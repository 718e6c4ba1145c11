/**
 * Where the tasks of a streams application go (the placement half of Kafka Streams' sticky task assignor): each
 * task stays with the member that had it before, as long as the load stays balanced — every member holds
 * floor(n/m) or ceil(n/m) of the n tasks — and otherwise the fewest tasks move. A task stays where its state is,
 * so a rebalance restores only what had to move.
 *
 * A member that keeps only part of its previous tasks keeps them spread over the sub-topologies, so that each
 * sub-topology's tasks stay spread over the members; of a sub-topology's tasks it gives up first those whose state
 * another member keeps on disk. A task no member had before goes, where there is room, to a member that keeps its
 * state on disk (a restarted instance, whose tasks were taken over meanwhile), so that it restores only what that
 * state lacks, and a warm-up is not needed for a state that is current.
 *
 * A pure function of the tasks and each member's previous tasks: every member's assignor computes the same answer.
 */
import { parseTaskId } from "../../engine/compiled-topology";

/** A member of the group as the placement sees it: its id and the tasks it held before this rebalance. */
export interface PlacementMember {
  readonly memberId: string;
  readonly previousTasks: readonly string[];
  /** Tasks whose state the member has on disk without running them: weaker claims than previousTasks. */
  readonly localTasks?: readonly string[];
}

/**
 * Each member's tasks, by member id. `tasks` are the task ids to place, in the order that spreads a fresh
 * placement well (the caller orders them by sub-topology, then partition, so each sub-topology's tasks spread
 * over the members). A task that two members both claim stays with the first in member id order.
 */
export function placeTasks(tasks: readonly string[], members: readonly PlacementMember[]): Map<string, string[]> {
  const sorted = [...members].sort((a, b) => compare(a.memberId, b.memberId));
  const placement = new Map<string, string[]>(sorted.map((member) => [member.memberId, []]));
  if (sorted.length === 0) return placement;
  const order = new Map(tasks.map((task, index) => [task, index]));
  const unplaced = new Set(tasks);
  // What each member may keep: its previous tasks that still exist and no earlier member claimed.
  const kept = new Map<string, string[]>();
  for (const member of sorted) {
    const mine = [...new Set(member.previousTasks)].filter((task) => unplaced.delete(task));
    const onDiskElsewhere = (task: string) => sorted.some((other) => other !== member && other.localTasks?.includes(task));
    kept.set(member.memberId, interleaved(mine, order, onDiskElsewhere));
  }
  for (const task of tasks) unplaced.add(task);
  // n % m members hold one task more than the others: those that kept the most, so that the fewest tasks move.
  const floor = Math.floor(tasks.length / sorted.length);
  let larger = tasks.length % sorted.length;
  const byKept = [...sorted].sort((a, b) => kept.get(b.memberId)!.length - kept.get(a.memberId)!.length || compare(a.memberId, b.memberId));
  const capacity = new Map<string, number>();
  for (const member of byKept) {
    const extra = larger > 0 && kept.get(member.memberId)!.length > floor ? 1 : 0;
    larger -= extra;
    capacity.set(member.memberId, floor + extra);
  }
  // Members that kept no more than the floor share what is left of the larger quotas, in member id order.
  for (const member of sorted) {
    if (larger === 0) break;
    if (capacity.get(member.memberId) === floor) {
      capacity.set(member.memberId, floor + 1);
      larger--;
    }
  }
  for (const member of sorted) {
    const keep = kept.get(member.memberId)!.slice(0, capacity.get(member.memberId));
    for (const task of keep) unplaced.delete(task);
    placement.get(member.memberId)!.push(...keep);
  }
  // The rest goes, in task order, to the member with the fewest tasks that has room (ties: member id order): first to
  // members with the task's state on disk, then to any.
  const roomiest = (candidates: readonly PlacementMember[]) => {
    let target: string | undefined;
    for (const member of candidates) {
      const held = placement.get(member.memberId)!.length;
      if (held >= capacity.get(member.memberId)!) continue;
      if (target === undefined || held < placement.get(target)!.length) target = member.memberId;
    }
    return target;
  };
  for (const task of tasks) {
    if (!unplaced.has(task)) continue;
    const target = roomiest(sorted.filter((member) => member.localTasks?.includes(task))) ?? roomiest(sorted);
    placement.get(target!)!.push(task);
    unplaced.delete(task);
  }
  for (const tasks of placement.values()) tasks.sort((a, b) => order.get(a)! - order.get(b)!);
  return placement;
}

/**
 * `tasks` in task order, each sub-topology's first task before any one's second, and so on; within a sub-topology,
 * those `last` holds come after the others.
 */
function interleaved(tasks: readonly string[], order: ReadonlyMap<string, number>, last: (task: string) => boolean): string[] {
  const taken = new Map<number, number>();
  return [...tasks]
    .sort((a, b) => Number(last(a)) - Number(last(b)) || order.get(a)! - order.get(b)!)
    .map((task) => {
      const sub = parseTaskId(task).subTopologyId;
      const rank = taken.get(sub) ?? 0;
      taken.set(sub, rank + 1);
      return { task, rank };
    })
    .sort((a, b) => a.rank - b.rank || order.get(a.task)! - order.get(b.task)!)
    .map(({ task }) => task);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The cooperative protocol's rule (KIP-429): no member is given a task that another member still owns in this
 * rebalance. Such a task is withheld: its owner gives it up and joins again, and the next rebalance hands it over.
 * `owned`: the tasks each member reported it keeps through the rebalance, by member id.
 */
export function withholdOwned(placement: ReadonlyMap<string, readonly string[]>, owned: ReadonlyMap<string, readonly string[]>): Map<string, string[]> {
  const ownerOf = new Map<string, string>();
  for (const [memberId, tasks] of owned) for (const task of tasks) ownerOf.set(task, memberId);
  return new Map([...placement].map(([memberId, tasks]) => [memberId, tasks.filter((task) => (ownerOf.get(task) ?? memberId) === memberId)]));
}
