/** Request builders and small drivers shared by the group-coordinator tests. */
import type {
  GroupCoordinator,
  GroupProtocol,
  JoinGroupRequest,
  JoinGroupResult,
  MemberIdentity,
  MemberRef,
  SyncGroupRequest,
} from "../../../../providers/broker/group/group-coordinator";

export const GROUP = "orders-app";

export function protocol(name: string, metadata: string): GroupProtocol {
  return { name, metadata: Buffer.from(metadata) };
}

export function joinRequest(overrides: Partial<JoinGroupRequest> = {}): JoinGroupRequest {
  return {
    groupId: GROUP,
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 10_000,
    memberId: "",
    groupInstanceId: null,
    protocolType: "consumer",
    protocols: [protocol("range", "range-metadata")],
    clientId: "client",
    clientHost: "/127.0.0.1",
    requireKnownMemberId: false,
    ...overrides,
  };
}

/** A LeaveGroup's naming of a dynamic member. */
export function byId(memberId: string): MemberIdentity {
  return { memberId, groupInstanceId: null };
}

export function memberRef(joined: JoinGroupResult, overrides: Partial<MemberRef> = {}): MemberRef {
  return { groupId: GROUP, generationId: joined.generationId, memberId: joined.memberId, groupInstanceId: null, ...overrides };
}

export function syncRequest(joined: JoinGroupResult, assignments: SyncGroupRequest["assignments"] = []): SyncGroupRequest {
  return { ...memberRef(joined), assignments };
}

/**
 * Awaits a coordinator answer with a deadline. The coordinator's timers are unref'd, so this ref'd deadline
 * is also what keeps the test process alive while a join phase or a session timer runs.
 */
export function within<T>(promise: Promise<T>, timeoutMs = 5_000, what = "the coordinator's answer"): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(deadline);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(deadline);
        reject(error);
      },
    );
  });
}

export function joinAll(coordinator: GroupCoordinator, requests: JoinGroupRequest[]): Promise<JoinGroupResult[]> {
  return within(Promise.all(requests.map((request) => coordinator.join(request))));
}

/** Tracks whether a promise has settled, to assert that a join or sync is still waiting. */
export function track<T>(promise: Promise<T>): { readonly settled: boolean; readonly promise: Promise<T> } {
  const state = { settled: false, promise };
  promise.then(() => (state.settled = true), () => (state.settled = true));
  return state;
}

/** Lets already-resolved promise callbacks run; the coordinator answers synchronously, so this is enough. */
export function flushCallbacks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Joins the given requests concurrently into one generation, syncs it with the leader assigning
 * `assignment-<index>` to each member, and returns the join results in request order.
 */
export async function formStableGroup(coordinator: GroupCoordinator, requests: JoinGroupRequest[]): Promise<JoinGroupResult[]> {
  const joined = await joinAll(coordinator, requests);
  const leader = joined.find((result) => result.leader === result.memberId);
  if (leader === undefined) throw new Error("no member was told it leads");
  const assignments = joined.map((result, index) => ({ memberId: result.memberId, assignment: Buffer.from(`assignment-${index}`) }));
  await within(Promise.all(joined.map((result) => coordinator.sync(syncRequest(result, result === leader ? assignments : [])))));
  return joined;
}
