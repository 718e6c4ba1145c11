/**
 * Runs a validated query end to end: plans it, asks the remote instances concurrently (each bounded by the
 * time left), streams the local records meanwhile, then adds the remote answers and the status.
 */
import type { ServerResponse } from "node:http";
import type { QueryRecord } from "../../kernel/contracts/query-engine";
import type { ApplicationHandle, StoreHandle } from "../../kernel/contracts/streams/runtime";
import type { ReadOnlyStore } from "../../kernel/contracts/streams/stores";
import type { JsonRenderer } from "../../kernel/contracts/json-serializer";
import type { Logger } from "../../kernel/logger";
import { forwardedOptions } from "./query-options";
import { planQuery } from "./query-plan";
import type { QueryRequest } from "./query-request";
import { QueryResponseWriter, type FailureEntry, type QueryStatus } from "./query-response-writer";
import { recordText } from "./record-rendering";
import { askRemote, type RemoteAnswer } from "./remote-query";

export interface QueryExecution {
  application: ApplicationHandle;
  store: StoreHandle;
  request: QueryRequest;
  /** This server's `host:port`. */
  server: string;
  startedAt: number;
  renderer: JsonRenderer;
  logger: Logger;
}

interface LocalOutcome {
  total: number;
  failure?: FailureEntry;
  timeout: boolean;
}

export async function executeQuery(execution: QueryExecution, res: ServerResponse): Promise<void> {
  const { request, server, startedAt } = execution;
  const deadline = startedAt + request.options.queryTimeoutMs;
  const writer = new QueryResponseWriter(res, server);
  const took = () => Date.now() - startedAt;
  const found = await probeLocally(execution, writer, deadline);
  if (found) {
    await writer.finish({ total: found.total, failure: [], took: took(), timeout: found.timeout, status: "SUCCESS" });
    return;
  }
  const plan = await planQuery(execution, deadline);
  if (plan.outcome !== "RUN") {
    await writer.finish({ total: 0, failure: [], took: took(), timeout: false, status: plan.outcome });
    return;
  }
  const remoteAnswers = plan.remotes.map((remote) => ask(execution, remote, deadline));
  const local = plan.local ? await streamLocal(execution, plan.local, writer, deadline, true) : undefined;
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
  await writer.finish({ total, failure, took: took(), timeout, status: statusOf(successes, failure.length) });
}

/**
 * A keyed query first runs on every local partition: only the key's partition can hold its records, so any
 * record found here answers it without asking the group who owns the key (a network round trip). Undefined
 * when nothing was found (or the store is not queryable): the query is then planned by the key's owner.
 */
async function probeLocally(execution: QueryExecution, writer: QueryResponseWriter, deadline: number): Promise<LocalOutcome | undefined> {
  const { store, request } = execution;
  if (!request.definition.routingKey || !store.queryable()) return undefined;
  const partitions = store.localPartitions();
  if (partitions.length === 0) return undefined;
  const outcome = await streamLocal(execution, { partitions, ready: true }, writer, deadline, false);
  return outcome.total > 0 ? outcome : undefined;
}

function statusOf(successes: number, failures: number): QueryStatus {
  if (failures === 0) return "SUCCESS";
  return successes > 0 ? "PARTIAL" : "ERROR";
}

function ask({ application, store, request }: QueryExecution, server: string | null, deadline: number): Promise<RemoteAnswer> {
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
  return askRemote({ server, applicationId: application.id, store: store.name, body, timeoutMs: remainingMs });
}

/**
 * Streams this instance's records into the writer, as one success entry (also when empty if `keepEmpty`). A
 * failure before the first record becomes a failure entry; once records are out, the response can only be
 * cut (the error is rethrown).
 */
async function streamLocal(
  { application, store, request, server, renderer, logger }: QueryExecution,
  local: { partitions: number[]; ready: boolean },
  writer: QueryResponseWriter,
  deadline: number,
  keepEmpty: boolean,
): Promise<LocalOutcome> {
  const failed = (message: string): LocalOutcome => ({ total: 0, timeout: false, failure: { server, remote: false, errors: [{ message }] } });
  const stores = local.partitions.map((partition) => store.readOnly(partition));
  if (!local.ready || stores.some((candidate) => candidate === undefined)) return failed(`store '${store.name}' is not queryable now`);
  const toJson = recordText(renderer, application.id, store.name);
  let total = 0;
  let timeout = false;
  const records = request.definition.execute(stores as ReadOnlyStore[], request.args, request.options.limit)[Symbol.asyncIterator]();
  try {
    let next: IteratorResult<QueryRecord>;
    while (!(next = await records.next()).done) {
      // Rendered before the entry opens, so that a value no serializer module takes is a clean failure entry.
      const json = toJson(next.value);
      if (!writer.streaming) await writer.openEntry(server, false);
      const flushing = writer.record(json);
      if (flushing) await flushing;
      total++;
      if (Date.now() > deadline) {
        timeout = true;
        break;
      }
    }
  } catch (error) {
    if (writer.streaming) throw error;
    logger.warn("local query failed", { store: store.name, error });
    return failed((error as Error).message);
  } finally {
    await records.return?.();
  }
  if (total === 0 && !keepEmpty) return { total, timeout };
  if (!writer.streaming) await writer.openEntry(server, false);
  await writer.closeEntry(total);
  return { total, timeout };
}
