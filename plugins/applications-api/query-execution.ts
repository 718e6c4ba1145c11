/**
 * Runs a validated query end to end: plans it, asks the remote instances concurrently (each bounded by the
 * time left), streams the local records meanwhile, then adds the remote answers and the status.
 */
import { type InstanceInfo, isStreamedAnswer, type Logger, type PeerTransport, type QueryAnswer, type QueryRecord, type ReadOnlyStore, type StoreHandle, type StoreType } from "sluice";
import { forwardedOptions } from "./query-options";
import { planQuery } from "./query-plan";
import type { QueryRequest } from "./query-request";
import { QueryResponseWriter, type AnswerOutput, type FailureEntry, type QueryStatus, type Staleness } from "./query-response-writer";
import type { QueryTarget } from "./query-targets";
import { askRemote, type RemoteAnswer } from "./remote-query";
import { storeAs } from "./store-facades";

export interface QueryExecution {
  target: QueryTarget;
  request: QueryRequest;
  startedAt: number;
  logger: Logger;
  /** How the other instances are asked; none without the HTTP server. */
  peers: PeerTransport | undefined;
}

interface LocalOutcome {
  total: number;
  failure?: FailureEntry;
  timeout: boolean;
}

const NO_FAILURE: FailureEntry[] = [];
const asIs = (outcome: LocalOutcome) => outcome;

/**
 * A keyed query first runs on every local partition: only the key's partition can hold its records, so any
 * record found here answers it without asking the group who owns the key (a network round trip). The partition the
 * default partitioner gives the key is read first, so that a key found costs one read. When nothing is found (or
 * the store is not queryable), the query is planned by the key's owner. This function holds only that first step,
 * the hot path of interactive queries, and is not async: a promise reaction costs less than an async frame. The
 * rest is `runPlanned`. Under `allow_stale` a local standby of the key's partition answers when no local active task
 * does, and its answer (records or none) is the answer. Resolves with the answer's status once it is written.
 */
export function executeQuery(execution: QueryExecution, output: AnswerOutput): Promise<QueryStatus> {
  const { target, request } = execution;
  const deadline = execution.startedAt + request.options.queryTimeoutMs;
  const writer = new QueryResponseWriter(output, target.serverJson);
  const { routingKey } = request.definition;
  if (request.options.allowStale) writer.localStaleness = ACTIVE;
  if (routingKey !== undefined) {
    const partition = target.store.partitionOf(request.args[routingKey]);
    // A member never holds a standby of a partition it runs: a local standby of the key's partition is its only copy here.
    const standby = request.options.allowStale ? target.store.standbyReadOnly?.(partition) : undefined;
    if (standby) {
      writer.localStaleness = { standby: true, lag: standby.lag };
      return answerLocally(execution, [storeAs(standby.store, request.type)], writer, deadline, true, (found) => finishFound(execution, found, writer, deadline, true));
    }
    // No partition, or one not readable: the store is not queryable now (readOnly answers only while it is).
    const stores = readableStores(target.store, request.type, target.store.localPartitions(), partition);
    if (stores) return answerLocally(execution, stores, writer, deadline, false, (found) => finishFound(execution, found, writer, deadline, false));
  }
  return runPlanned(execution, writer, deadline);
}

const ACTIVE: Staleness = { standby: false, lag: 0 };

/** `final`: the local answer stands even when it found nothing (a standby's: its owner is not asked). */
function finishFound(execution: QueryExecution, found: LocalOutcome, writer: QueryResponseWriter, deadline: number, final: boolean): QueryStatus | Promise<QueryStatus> {
  if (found.total === 0 && !final) return runPlanned(execution, writer, deadline);
  const status = found.failure ? "ERROR" : "SUCCESS";
  writer.finish({ total: found.total, failure: found.failure ? [found.failure] : NO_FAILURE, took: Date.now() - execution.startedAt, timeout: found.timeout, status });
  return status;
}

/** Plans the query, asks the remote instances concurrently while the local records stream, then adds their answers. */
async function runPlanned(execution: QueryExecution, writer: QueryResponseWriter, deadline: number): Promise<QueryStatus> {
  const { target, request, startedAt } = execution;
  const plan = await planQuery({ application: target.application, store: target.store, request }, deadline);
  if (plan.outcome !== "RUN") {
    writer.finish({ total: 0, failure: NO_FAILURE, took: Date.now() - startedAt, timeout: false, status: plan.outcome });
    return plan.outcome;
  }
  const remoteAnswers = plan.remotes.map((remote) => ask(execution, remote, deadline));
  const local = plan.local ? await answerLocally(execution, plan.local.ready ? readableStores(target.store, request.type, plan.local.partitions) : undefined, writer, deadline, true, asIs) : undefined;
  const remotes = await Promise.all(remoteAnswers);
  if (plan.fallbacks !== undefined && plan.fallbacks.length > 0 && remotes[0].success.length === 0) remotes[0] = await askStandbys(execution, plan.fallbacks, remotes[0], deadline);

  let budget = request.options.limit === undefined ? Infinity : request.options.limit - (local?.total ?? 0);
  let total = local?.total ?? 0;
  const failure: FailureEntry[] = local?.failure ? [local.failure] : [];
  let successes = local && !local.failure ? 1 : 0;
  for (const answer of remotes) {
    for (const entry of answer.success) {
      const records = entry.records.length > budget ? entry.records.slice(0, budget) : entry.records;
      budget -= records.length;
      total += records.length;
      successes++;
      await writer.entry({ ...entry, records, total: records.length });
    }
    failure.push(...answer.failure);
  }
  const timeout = (local?.timeout ?? false) || remotes.some((answer) => answer.timeout);
  const status = statusOf(successes, failure.length);
  writer.finish({ total, failure, took: Date.now() - startedAt, timeout, status });
  return status;
}

/**
 * The read-only stores of these partitions as a query of type `asked` reads them, that of partition `first` (when
 * among them) ahead of the others; undefined when there are none or one is not readable now.
 */
function readableStores(store: StoreHandle, asked: StoreType, partitions: readonly number[], first = -1): ReadOnlyStore[] | undefined {
  if (partitions.length === 0) return undefined;
  const stores: ReadOnlyStore[] = [];
  for (const partition of partitions) {
    const stored = store.readOnly(partition);
    if (!stored) return undefined;
    const readOnly = storeAs(stored, asked);
    if (partition === first) stores.unshift(readOnly);
    else stores.push(readOnly);
  }
  return stores;
}

function statusOf(successes: number, failures: number): QueryStatus {
  if (failures === 0) return "SUCCESS";
  return successes > 0 ? "PARTIAL" : "ERROR";
}

/**
 * Under allow_stale, after a keyed query's owner failed to answer (`failed`): its partition's standbys, in turn, until
 * one answers — with no failure entry then, since the answer is whole and says it came from a standby. None answering:
 * every failure.
 */
async function askStandbys(execution: QueryExecution, standbys: readonly InstanceInfo[], failed: RemoteAnswer, deadline: number): Promise<RemoteAnswer> {
  const failure = [...failed.failure];
  for (const standby of standbys) {
    const answer = await ask(execution, standby, deadline);
    if (answer.success.length > 0) return { ...answer, failure: [] };
    failure.push(...answer.failure);
  }
  return { ...failed, failure };
}

function ask({ target, request, peers }: QueryExecution, instance: InstanceInfo, deadline: number): Promise<RemoteAnswer> {
  const { server, memberId } = instance;
  if (server === null) {
    const message = `group member '${memberId}' has no application.server to be asked at: the records of its partitions are not in this answer`;
    return Promise.resolve({ success: [], failure: [{ server: null, member_id: memberId ?? undefined, remote: true, errors: [{ message }] }], timeout: false });
  }
  if (!peers) {
    const message = `${server} cannot be asked: this instance runs no HTTP server (server.enable=false), so it has no way to reach the others`;
    return Promise.resolve({ success: [], failure: [{ server, remote: true, errors: [{ message }] }], timeout: false });
  }
  const remainingMs = deadline - Date.now();
  const body = {
    type: request.type,
    set_options: forwardedOptions(request.options, remainingMs, request.options.limit),
    query: { [request.definition.name]: request.rawParams },
  };
  return askRemote({ server, applicationId: target.application.id, store: target.store.name, body, timeoutMs: remainingMs, peers });
}

/**
 * Writes this instance's records (from `stores`; undefined: not queryable now) as one success entry, also when
 * empty if `keepEmpty`, and hands the outcome to `next`. A failure before the first record becomes a failure entry;
 * once records are out, the response can only be cut (the error is rethrown). Promise reactions rather than an async
 * function, as in `executeQuery`: this runs for every local answer, and a whole answer (a point read) goes from the
 * engine's promise to `next` in one reaction.
 */
function answerLocally<R>(
  execution: QueryExecution,
  stores: ReadOnlyStore[] | undefined,
  writer: QueryResponseWriter,
  deadline: number,
  keepEmpty: boolean,
  next: (outcome: LocalOutcome) => R | PromiseLike<R>,
): Promise<R> {
  const { target, request } = execution;
  if (!stores) return Promise.resolve(localFailure(target, `store '${target.store.name}' is not queryable now`)).then(next);
  const failed = (error: unknown) => next(failedLocally(execution, writer, error));
  const close = (outcome: LocalOutcome) => next(closeLocalEntry(target, writer, outcome, keepEmpty));
  let answer: QueryAnswer;
  try {
    answer = request.definition.execute(stores, request.args, request.options.limit);
  } catch (error) {
    return Promise.reject(error).then(undefined, failed);
  }
  if (isStreamedAnswer(answer)) return streamRecords(answer, target, writer, deadline).then(close, failed);
  return answer.then((records) => {
    let written: LocalOutcome | Promise<LocalOutcome>;
    try {
      written = writeRecords(records, target, writer, deadline, 0);
    } catch (error) {
      return failed(error);
    }
    return written instanceof Promise ? written.then(close, failed) : close(written);
  }, failed);
}

/** Records of a scan, until its end or the deadline. */
async function streamRecords(answer: AsyncIterable<QueryRecord>, target: QueryTarget, writer: QueryResponseWriter, deadline: number): Promise<LocalOutcome> {
  const records = answer[Symbol.asyncIterator]();
  let total = 0;
  try {
    let next: IteratorResult<QueryRecord>;
    while (!(next = await records.next()).done) {
      const flushing = writeLocalRecord(target, writer, next.value);
      if (flushing) await flushing;
      total++;
      if (Date.now() > deadline) return { total, timeout: true };
    }
    return { total, timeout: false };
  } finally {
    await records.return?.();
  }
}

/** Records of a whole answer, already read: they all go out (from `from` on), and the deadline is checked once after them. */
function writeRecords(records: readonly QueryRecord[], target: QueryTarget, writer: QueryResponseWriter, deadline: number, from: number): LocalOutcome | Promise<LocalOutcome> {
  for (let index = from; index < records.length; index++) {
    const flushing = writeLocalRecord(target, writer, records[index]);
    if (flushing) return flushing.then(() => writeRecords(records, target, writer, deadline, index + 1));
  }
  return { total: records.length, timeout: records.length > 0 && Date.now() > deadline };
}

/** Adds a record to the local entry, opening it first; a promise only when the connection must drain. */
function writeLocalRecord(target: QueryTarget, writer: QueryResponseWriter, record: QueryRecord): Promise<void> | undefined {
  // Rendered before the entry opens, so that a value no serializer module takes is a clean failure entry.
  const json = target.toJson(record);
  if (!writer.streaming) writer.openEntry(target.serverJson, false);
  return writer.record(json);
}

function closeLocalEntry(target: QueryTarget, writer: QueryResponseWriter, outcome: LocalOutcome, keepEmpty: boolean): LocalOutcome {
  if (outcome.total === 0 && !keepEmpty) return outcome;
  if (!writer.streaming) writer.openEntry(target.serverJson, false);
  writer.closeEntry(outcome.total);
  return outcome;
}

function failedLocally({ target, logger }: QueryExecution, writer: QueryResponseWriter, error: unknown): LocalOutcome {
  if (writer.streaming) throw error;
  logger.warn("local query failed", { store: target.store.name, error });
  return localFailure(target, (error as Error).message);
}

const localFailure = ({ server }: QueryTarget, message: string): LocalOutcome => ({
  total: 0,
  timeout: false,
  failure: { server, remote: false, errors: [{ message }] },
});
