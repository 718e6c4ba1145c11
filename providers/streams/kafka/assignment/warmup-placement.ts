/**
 * Warm-up replicas (Kafka Streams' HighAvailabilityTaskAssignor, KIP-441): a stateful task moves only to an instance
 * that has caught up on its state. Given the balanced placement the sticky placement wants, a stateful task whose
 * desired instance lags more than `acceptable.recovery.lag` behind its changelogs stays on (or goes to) an instance
 * that has caught up — its previous owner when that one has, else the one that lags least — and the desired instance
 * gets a warm-up replica of it instead: a standby task that reads the changelogs until a probing rebalance finds it
 * caught up and moves the task there. At most `max.warmup.replicas` warm-ups are given per rebalance, group-wide.
 * A task no instance has caught up on goes where the balance wants it (someone has to restore it), and a stateless
 * task has no lag: it goes where the balance wants at once.
 *
 * A member reports, per task it has state for, the sum of its stores' changelog offsets (Kafka Streams'
 * SubscriptionInfo taskOffsetSums); a running active task reports LATEST_OFFSET, as in Kafka. The leader turns them into
 * lags against the changelogs' end offsets.
 */
import { byTaskId } from "../../engine/compiled-topology";

/** The offset sum a member reports for a task it runs actively (Kafka's Task.LATEST_OFFSET): it has no lag. */
export const LATEST_OFFSET = -2;

export interface WarmupSettings {
  /** `max.warmup.replicas`: warm-ups given per rebalance, group-wide. */
  readonly maxWarmupReplicas: number;
  /** `acceptable.recovery.lag`: the most changelog records an instance may lack and still count as caught up. */
  readonly acceptableRecoveryLag: number;
}

export interface WarmupPlacement {
  /** Client → its active tasks. */
  readonly active: Map<string, string[]>;
  /** Client → the warm-up replicas it gets, beside its standbys. */
  readonly warmups: Map<string, string[]>;
}

/**
 * The sum of a task's changelog offsets as its state holds them: for each logged store, the offset after the last
 * changelog record its data includes (`positions`: store → that record's offset; a store without one counts 0).
 */
export function offsetSumOf(stores: readonly string[], positions: ReadonlyMap<string, number>): number {
  return stores.reduce((sum, store) => sum + (positions.get(store) ?? -1) + 1, 0);
}

/**
 * How many changelog records a client lacks of a task: 0 for a task it runs (LATEST_OFFSET), the whole changelog for
 * one it has no state of, and for one whose state is past the changelogs' ends (they were truncated or recreated: the
 * state is dropped and restored from scratch, as Kafka Streams counts it). `endSum`: the task's changelogs' end offsets summed.
 */
export function lagOf(offsetSum: number | undefined, endSum: number): number {
  if (offsetSum === LATEST_OFFSET) return 0;
  const sum = offsetSum ?? 0;
  return sum > endSum ? endSum : endSum - sum;
}

/** Whether a lag (undefined: a stateless task's) is within `acceptable.recovery.lag`. */
export function isCaughtUp(lag: number | undefined, settings: WarmupSettings): boolean {
  return (lag ?? 0) <= settings.acceptableRecoveryLag;
}

/**
 * Moves the stateful tasks of `desired` (client → tasks, from the sticky placement) that would go to a client not
 * caught up on them onto a caught-up client, and gives the desired client a warm-up of each, up to the cap.
 * `lag(client, task)`: the client's lag on a stateful task; undefined for a stateless task. `previousOwner`: the
 * client that ran each task before.
 */
export function placeWarmups(
  desired: ReadonlyMap<string, readonly string[]>,
  lag: (client: string, task: string) => number | undefined,
  previousOwner: ReadonlyMap<string, string>,
  settings: WarmupSettings,
): WarmupPlacement {
  const clients = [...desired.keys()];
  const active = new Map(clients.map((client) => [client, [...desired.get(client)!]]));
  const warmups = new Map<string, string[]>(clients.map((client) => [client, []]));
  const caughtUp = (client: string, task: string) => isCaughtUp(lag(client, task), settings);
  let granted = 0;
  const placed = clients.flatMap((client) => desired.get(client)!.map((task) => ({ task, client }))).sort((a, b) => byTaskId(a.task, b.task));
  for (const { task, client } of placed) {
    if (caughtUp(client, task)) continue;
    const ready = clients.filter((candidate) => caughtUp(candidate, task));
    if (ready.length === 0) continue;
    const owner = previousOwner.get(task);
    const holder = owner !== undefined && ready.includes(owner) ? owner : ready.reduce((best, candidate) => (lag(candidate, task)! < lag(best, task)! ? candidate : best));
    active.set(client, active.get(client)!.filter((id) => id !== task));
    active.get(holder)!.push(task);
    if (granted < settings.maxWarmupReplicas) {
      warmups.get(client)!.push(task);
      granted++;
    }
  }
  for (const tasks of active.values()) tasks.sort(byTaskId);
  return { active, warmups };
}
