/**
 * How a placement over instances becomes one over stream threads (Kafka Streams' num.stream.threads): the members of
 * a group that share a process id (one instance's threads) count as one client. Tasks and standbys are placed on the
 * clients first, so the load balances across instances before threads, and a standby never lands on the instance
 * that runs its active task; then each client's tasks are placed over its threads, each kept with the thread that
 * held it while the threads' loads stay balanced (see sticky-placement).
 * A member whose subscription names no process id (an older Sluice) is a client of its own.
 */
import { placeTasks, type PlacementMember } from "./sticky-placement";

export interface ProcessMember {
  readonly memberId: string;
  readonly processId?: string;
}

/** The group's members by client (process id), each client's members in member id order; clients in process id order. */
export function clientsOf(members: readonly ProcessMember[]): Map<string, string[]> {
  const clients = new Map<string, string[]>();
  for (const { memberId, processId } of [...members].sort((a, b) => compare(a.memberId, b.memberId))) {
    const client = processId ?? `member:${memberId}`;
    clients.set(client, [...(clients.get(client) ?? []), memberId]);
  }
  return new Map([...clients].sort(([a], [b]) => compare(a, b)));
}

/**
 * Each client's tasks (in their order) placed over the client's members, as `placementMember` describes each (the
 * tasks it held). Every member of `clients` gets a list, empty or not.
 */
export function placeOverThreads(
  clients: ReadonlyMap<string, readonly string[]>,
  tasksOfClient: ReadonlyMap<string, readonly string[]>,
  placementMember: (memberId: string) => PlacementMember,
): Map<string, string[]> {
  const placement = new Map<string, string[]>();
  for (const [client, members] of clients) {
    for (const [member, tasks] of placeTasks(tasksOfClient.get(client) ?? [], members.map(placementMember))) placement.set(member, tasks);
  }
  return placement;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
