/**
 * Runs a validated query end to end: plans it, asks the remote instances concurrently (each bounded by the
 * time left), streams the local records meanwhile, then adds the remote answers and the status.
 */
import type { ServerResponse } from "node:http";
import { isStreamedAnswer, type QueryRecord } from "../../kernel/contracts/query-engine";
import type { StoreHandle } from "../../kernel/contracts/streams/runtime";
import type { ReadOnlyStore } from "../../kernel/contracts/streams/stores";
import type { Logger } from "../../kernel/logger";
import { forwardedOptions } from "./query-options";
import { planQuery } from "./query-plan";
import type { QueryRequest } from "./query-request";
import { QueryResponseWriter, type FailureEntry, type QueryStatus } from "./query-response-writer";
import type { QueryTarget } from "./query-targets";
import { askRemote, type RemoteAnswer } from "./remote-query";

export interface QueryExecution {
  target: QueryTarget;
  request: QueryRequest;
  startedAt: number;
  logger: Logger;
}

interface LocalOutcome {
  total: number;
  failure?: FailureEntry;
  timeout: boolean;
}

const NO_FAILURE: FailureEntry[] = [];

export async function executeQuery(execution: QueryExecution, res: ServerResponse): Promise<void> {
  const { target, request, startedAt } = execution;
  const deadline = startedAt + request.options.queryTimeoutMs;
  const writer = new QueryResponseWriter(res, target.serverJson);
  const found = request.definition.routingKey === undefined ? undefined : await probeLocally(execution, writer, deadline);
  if (found) {
    writer.finish({ total: found.total, failure: NO_FAILURE, took: Date.now() - startedAt, timeout: found.timeout, status: "SUCCESS" });
    return;
  }
  const plan = await planQuery({ application: target.application, store: target.store, request }, deadline);
  if (plan.outcome !== "RUN") {
    writer.finish({ total: 0, failure: NO_FAILURE, took: Date.now() - startedAt, timeout: false, status: plan.outcome });
    return;
  }
  const remoteAnswers = plan.remotes.map((remote) => ask(execution, remote, deadline));
  const local = plan.local ? await streamLocal(execution, plan.local.ready ? readableStores(target.store, plan.local.partitions) : undefined, writer, deadline, true) : undefined;
  const remotes = await Promise.all(remoteAnswers);

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
  writer.finish({ total, failure, took: Date.now() - startedAt, timeout, status: statusOf(successes, failure.length) });
}

/**
 * A keyed query first runs on every local partition: only the key's partition can hold its records, so any
 * record found here answers it without asking the group who owns the key (a network round trip). Undefined
 * when nothing was found (or the store is not queryable): the query is then planned by the key's owner.
 */
async function probeLocally(execution: QueryExecution, writer: QueryResponseWriter, deadline: number): Promise<LocalOutcome | undefined> {
  const { store } = execution.target;
  // No partition, or one not readable: the store is not queryable now (readOnly answers only while it is).
  const stores = readableStores(store, store.localPartitions());
  if (!stores) return undefined;
  const outcome = await streamLocal(execution, stores, writer, deadline, false);
  return outcome.total > 0 ? outcome : undefined;
}

/** The read-only stores of these partitions; undefined when there are none or one is not readable now. */
function readableStores(store: StoreHandle, partitions: readonly number[]): ReadOnlyStore[] | undefined {
  if (partitions.length === 0) return undefined;
  const stores: ReadOnlyStore[] = [];
  for (const partition of partitions) {
    const readOnly = store.readOnly(partition);
    if (!readOnly) return undefined;
    stores.push(readOnly);
  }
  return stores;
}

function statusOf(successes: number, failures: number): QueryStatus {
  if (failures === 0) return "SUCCESS";
  return successes > 0 ? "PARTIAL" : "ERROR";
}

function ask({ target, request }: QueryExecution, server: string | null, deadline: number): Promise<RemoteAnswer> {
  if (server === null) {
    const message = "an instance of the application has no application.server to be asked at";
    return Promise.resolve({ success: [], failure: [{ server: "unknown", remote: true, errors: [{ message }] }], timeout: false });
  }
  const remainingMs = deadline - Date.now();
  const body = {
    type: request.type,
    set_options: forwardedOptions(request.options, remainingMs, request.options.limit),
    query: { [request.definition.name]: request.rawParams },
  };
  return askRemote({ server, applicationId: target.application.id, store: target.store.name, body, timeoutMs: remainingMs });
}

/**
 * Writes this instance's records (from `stores`; undefined: not queryable now) as one success entry, also when
 * empty if `keepEmpty`. A failure before the first record becomes a failure entry; once records are out, the
 * response can only be cut (the error is rethrown).
 */
async function streamLocal(
  { target, request, logger }: QueryExecution,
  stores: ReadOnlyStore[] | undefined,
  writer: QueryResponseWriter,
  deadline: number,
  keepEmpty: boolean,
): Promise<LocalOutcome> {
  if (!stores) return localFailure(target, `store '${target.store.name}' is not queryable now`);
  let total = 0;
  let timeout = false;
  let records: AsyncIterator<QueryRecord> | undefined;
  try {
    const answer = request.definition.execute(stores, request.args, request.options.limit);
    if (isStreamedAnswer(answer)) {
      records = answer[Symbol.asyncIterator]();
      let next: IteratorResult<QueryRecord>;
      while (!(next = await records.next()).done) {
        const writing = writeLocalRecord(target, writer, next.value);
        if (writing) await writing;
        total++;
        if (Date.now() > deadline) {
          timeout = true;
          break;
        }
      }
    } else {
      // A whole answer is already read: its records all go out, and the deadline is checked once after them.
      for (const record of await answer) {
        const writing = writeLocalRecord(target, writer, record);
        if (writing) await writing;
        total++;
      }
      timeout = total > 0 && Date.now() > deadline;
    }
  } catch (error) {
    if (writer.streaming) throw error;
    logger.warn("local query failed", { store: target.store.name, error });
    return localFailure(target, (error as Error).message);
  } finally {
    await records?.return?.();
  }
  if (total === 0 && !keepEmpty) return { total, timeout };
  if (!writer.streaming) await writer.openEntry(target.serverJson, false);
  await writer.closeEntry(total);
  return { total, timeout };
}

/** Adds a record to the local entry, opening it first; a promise only when the connection must drain. */
function writeLocalRecord(target: QueryTarget, writer: QueryResponseWriter, record: QueryRecord): Promise<void> | undefined {
  // Rendered before the entry opens, so that a value no serializer module takes is a clean failure entry.
  const json = target.toJson(record);
  if (!writer.streaming) {
    const opening = writer.openEntry(target.serverJson, false);
    if (opening) return opening.then(() => writer.record(json));
  }
  return writer.record(json);
}

const localFailure = ({ server }: QueryTarget, message: string): LocalOutcome => ({
  total: 0,
  timeout: false,
  failure: { server, remote: false, errors: [{ message }] },
});
