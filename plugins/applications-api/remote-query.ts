/**
 * Asks another instance of the application: the same query endpoint over HTTP, bounded by the time left,
 * with remote access off so the request never bounces. Whatever happens becomes success or failure entries.
 */
import type { QueryRecord } from "../../kernel/contracts/query-engine";
import type { FailureEntry, SuccessEntry } from "./query-response-writer";

export interface RemoteAnswer {
  success: SuccessEntry[];
  failure: FailureEntry[];
  /** The remote ran out of time, or did not answer within it. */
  timeout: boolean;
}

export interface RemoteQuery {
  server: string;
  applicationId: string;
  store: string;
  body: unknown;
  timeoutMs: number;
}

interface RemoteResult {
  status?: string;
  timeout?: boolean;
  result?: {
    success?: { server: string; total: number; records: QueryRecord[] }[];
    failure?: { server: string; errors: { message: string }[] }[];
  };
  message?: string;
}

const failed = (server: string, message: string, timeout = false): RemoteAnswer => ({
  success: [],
  failure: [{ server, remote: true, errors: [{ message }] }],
  timeout,
});

export async function askRemote({ server, applicationId, store, body, timeoutMs }: RemoteQuery): Promise<RemoteAnswer> {
  const url = `http://${server}/api/v1/applications/${encodeURIComponent(applicationId)}/stores/${encodeURIComponent(store)}`;
  let response: Response;
  let parsed: RemoteResult;
  try {
    response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(Math.max(1, timeoutMs)),
    });
    parsed = (await response.json()) as RemoteResult;
  } catch (error) {
    if ((error as Error).name === "TimeoutError") return failed(server, `no answer from ${server} within ${Math.round(timeoutMs)} ms`, true);
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return failed(server, `cannot query ${server}: ${cause?.code ?? cause?.message ?? (error as Error).message}`);
  }
  if (!response.ok) return failed(server, `${server} answered HTTP ${response.status}: ${parsed.message ?? "no message"}`);
  const result = parsed.result ?? {};
  const failure: FailureEntry[] = (result.failure ?? []).map((entry) => ({ server: entry.server, remote: true, errors: entry.errors }));
  if (parsed.status !== "SUCCESS" && parsed.status !== "PARTIAL") {
    const errors = failure.flatMap((entry) => entry.errors);
    return { success: [], failure: [{ server, remote: true, errors: [{ message: `${server} answered ${parsed.status}` }, ...errors] }], timeout: parsed.timeout === true };
  }
  const success = (result.success ?? []).map((entry) => ({ server: entry.server, remote: true, total: entry.total, records: entry.records }));
  return { success, failure, timeout: parsed.timeout === true };
}
