/**
 * Where a query runs (docs/api.md#query-result): a keyed query on the partition of its key — here, or with remote access
 * on the instance that owns it; the others on this instance's partitions — and with remote access on every
 * instance hosting the store. Under `allow_stale` (with remote access), the instances holding a standby of a key's
 * partition answer in its owner's place when the owner fails to (or there is none). A store that is not queryable yet is asked again `retries` times, `retry_backoff_ms`
 * apart, within the query's deadline.
 */
import type { ApplicationHandle, InstanceInfo, StoreHandle } from "sluice";
import type { QueryRequest } from "./query-request";

export type QueryPlan =
  | { outcome: "NO_RESULT" | "NOT_AVAILABLE" }
  | {
      outcome: "RUN";
      /** Local partitions to read; `ready: false` when the local store stayed unqueryable (a failure entry). */
      local?: { partitions: readonly number[]; ready: boolean };
      /** The other instances to ask (one without application.server cannot be: a failure entry names it). */
      remotes: InstanceInfo[];
      /** Under allow_stale, a keyed query's standbys, asked in turn when the one remote fails to answer. */
      fallbacks?: InstanceInfo[];
    };

interface PlanContext {
  application: ApplicationHandle;
  store: StoreHandle;
  request: QueryRequest;
}

/** One try: a plan, or undefined when the store is not ready and another try may be made. */
type Attempt = (context: PlanContext, last: boolean) => Promise<QueryPlan | undefined>;

const localReadable = (store: StoreHandle, partitions: readonly number[]) =>
  partitions.length > 0 && partitions.every((partition) => store.readOnly(partition) !== undefined);

const keyed: Attempt = async ({ application, store, request }, last) => {
  const { partition, instance, standbys } = await application.ownerOf(store.name, request.rawParams[request.definition.routingKey!]);
  if (localReadable(store, [partition])) return { outcome: "RUN", local: { partitions: [partition], ready: true }, remotes: [] };
  const { remoteAccessAllowed, allowStale } = request.options;
  const fallbacks = remoteAccessAllowed && allowStale ? standbys.filter((candidate) => !candidate.isLocal) : [];
  if (instance && !instance.isLocal) return remoteAccessAllowed ? { outcome: "RUN", remotes: [instance], fallbacks } : { outcome: "NO_RESULT" };
  if (fallbacks.length > 0) return { outcome: "RUN", remotes: [fallbacks[0]], fallbacks: fallbacks.slice(1) };
  return last ? { outcome: "NOT_AVAILABLE" } : undefined;
};

// A running instance that hosts no partition of the store has nothing to answer with (NO_RESULT).
const spreadLocal: Attempt = async ({ application, store }, last) => {
  const partitions = store.localPartitions();
  if (store.queryable() && localReadable(store, partitions)) return { outcome: "RUN", local: { partitions, ready: true }, remotes: [] };
  if (!last) return undefined;
  return { outcome: application.state === "RUNNING" && partitions.length === 0 ? "NO_RESULT" : "NOT_AVAILABLE" };
};

const spreadRemote: Attempt = async ({ application, store }, last) => {
  const hosts = (await application.instances()).filter((instance) => instance.stores.includes(store.name));
  if (hosts.length === 0) return last ? { outcome: "NOT_AVAILABLE" } : undefined;
  const remotes = hosts.filter((instance) => !instance.isLocal);
  if (!hosts.some((instance) => instance.isLocal)) return { outcome: "RUN", remotes };
  const partitions = store.localPartitions();
  const ready = store.queryable() && localReadable(store, partitions);
  if (!ready && !last) return undefined;
  return { outcome: "RUN", local: { partitions, ready }, remotes };
};

/**
 * Asking the group who owns a key or hosts a store fails or hangs while Kafka is out of reach: the store then
 * counts as not available now (another try may find Kafka back), and the deadline bounds the asking.
 */
async function tryWithinDeadline(attempt: Attempt, context: PlanContext, last: boolean, deadline: number): Promise<QueryPlan | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const unavailable = last ? NOT_AVAILABLE : undefined;
  const outOfTime = new Promise<QueryPlan>((resolve) => (timer = setTimeout(() => resolve(NOT_AVAILABLE), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([attempt(context, last).catch(() => unavailable), outOfTime]);
  } finally {
    clearTimeout(timer);
  }
}

const NOT_AVAILABLE: QueryPlan = { outcome: "NOT_AVAILABLE" };

export async function planQuery(context: PlanContext, deadline: number): Promise<QueryPlan> {
  const { routingKey } = context.request.definition;
  const { remoteAccessAllowed, retries, retryBackoffMs } = context.request.options;
  // A global store is whole on every instance: asking the others too would only repeat its rows.
  const attempt = routingKey ? keyed : remoteAccessAllowed && !context.store.global ? spreadRemote : spreadLocal;
  for (let tries = 0; ; tries++) {
    const last = tries >= retries || Date.now() + retryBackoffMs >= deadline;
    const plan = await tryWithinDeadline(attempt, context, last, deadline);
    if (plan) return plan;
    await waitUntil(Date.now() + retryBackoffMs);
  }
}

/** Timers may fire a millisecond before the wall clock they are measured against has moved on; `took` must never be shorter than the backoffs waited. */
async function waitUntil(moment: number): Promise<void> {
  for (let left = moment - Date.now(); left > 0; left = moment - Date.now()) {
    await new Promise((resolve) => setTimeout(resolve, left));
  }
}
