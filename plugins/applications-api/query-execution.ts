/**
 * Runs a validated query end to end: plans it, asks the remote instances concurrently (each bounded by the
 * time left), streams the local records meanwhile, then adds the remote answers and the status.
 */
import type { ServerResponse } from "node:http";
import type { QueryRecord } from "../../kernel/contracts/query-engine";
import type { ApplicationHandle, StoreHandle } from "../../kernel/contracts/streams/runtime";
import type { ReadOnlyStore } from "../../kernel/contracts/streams/stores";
import type { Logger } from "../../kernel/logger";
import { forwardedOptions } from "./query-options";
import { planQuery } from "./query-plan";
import type { QueryRequest } from "./query-request";
import { QueryResponseWriter, type FailureEntry, type QueryStatus, type SuccessEntry } from "./query-response-writer";
import { askRemote, type RemoteAnswer } from "./remote-query";

export interface QueryExecution {
  application: ApplicationHandle;
  store: StoreHandle;
  request: QueryRequest;
  /** This server's `host:port`. */
  server: string;
  startedAt: number;
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
  const plan = await planQuery(execution, deadline);
  const writer = new QueryResponseWriter(res, server);
  const took = () => Date.now() - startedAt;
  if (plan.outcome !== "RUN") {
    await writer.finish({ total: 0, failure: [], took: took(), timeout: false, status: plan.outcome });
    return;
  }
  const remoteAnswers = plan.remotes.map((remote) => ask(execution, remote, deadline));
  const local = plan.local ? await streamLocal(execution, plan.local, writer, deadline) : undefined;
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
 * Streams this instance's records into the writer. A failure before the first record becomes a failure
 * entry; once records are out, the response can only be cut (the error is rethrown).
 */
async function streamLocal(
  { store, request, server, logger }: QueryExecution,
  local: { partitions: number[]; ready: boolean },
  writer: QueryResponseWriter,
  deadline: number,
): Promise<LocalOutcome> {
  const notQueryable = (message: string): LocalOutcome => ({ total: 0, timeout: false, failure: { server, remote: false, errors: [{ message }] } });
  const stores = local.partitions.map((partition) => store.readOnly(partition));
  if (!local.ready || stores.some((candidate) => candidate === undefined)) return notQueryable(`store '${store.name}' is not queryable now`);
  let total = 0;
  let timeout = false;
  const records = request.definition.execute(stores as ReadOnlyStore[], request.args, request.options.limit)[Symbol.asyncIterator]();
  try {
    let next: IteratorResult<QueryRecord>;
    while (!(next = await records.next()).done) {
      if (!writer.streaming) await writer.openEntry(server, false);
      await writer.record(next.value);
      total++;
      if (Date.now() > deadline) {
        timeout = true;
        break;
      }
    }
  } catch (error) {
    if (writer.streaming) throw error;
    logger.warn("local query failed", { store: store.name, error });
    return notQueryable(`store '${store.name}' failed: ${(error as Error).message}`);
  } finally {
    await records.return?.();
  }
  if (!writer.streaming) await writer.openEntry(server, false);
  await writer.closeEntry(total);
  return { total, timeout };
}
