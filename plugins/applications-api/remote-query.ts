/**
 * Asks another instance of the application: the same query endpoint over HTTP(S), the request proven with the
 * instance secret (never the caller's credentials), bounded by the time left, with remote access off so the
 * request never bounces. An answer that does not prove it comes from an instance holding the secret is refused.
 * Whatever happens becomes success or failure entries.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import type { PeerTransport, QueryRecord } from "sluice";
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
  peers: PeerTransport;
}

interface RemoteResult {
  status?: string;
  timeout?: boolean;
  result?: {
    success?: { server: string; total: number; records: QueryRecord[]; standby?: boolean; lag?: number }[];
    failure?: { server: string; errors: { message: string }[] }[];
  };
  message?: string;
}

const failed = (server: string, message: string, timeout = false): RemoteAnswer => ({
  success: [],
  failure: [{ server, remote: true, errors: [{ message }] }],
  timeout,
});

class NoAnswerInTime extends Error {}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** POSTs `payload` and reads the whole answer, or fails with NoAnswerInTime once `timeoutMs` have passed since the call. */
function post(url: string, payload: Buffer, timeoutMs: number, peers: PeerTransport, credentials: Record<string, string>): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let timedOut = false;
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(timedOut ? new NoAnswerInTime() : error);
    };
    const headers = { ...credentials, "Content-Type": "application/json", "Content-Length": payload.length };
    const request = (peers.protocol === "https:" ? https : http).request(url, { method: "POST", agent: peers.agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", fail);
      response.on("end", () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
      });
    });
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy();
    }, Math.max(1, timeoutMs));
    request.on("error", fail);
    request.end(payload);
  });
}

export async function askRemote({ server, applicationId, store, body, timeoutMs, peers }: RemoteQuery): Promise<RemoteAnswer> {
  if (peers.refusal !== undefined) return failed(server, `${server} not asked: ${peers.refusal}`);
  const path = `/api/v1/applications/${encodeURIComponent(applicationId)}/stores/${encodeURIComponent(store)}`;
  const payload = Buffer.from(JSON.stringify(body));
  const proof = peers.prove("POST", path, payload);
  let response: Answer;
  let parsed: RemoteResult;
  try {
    response = await post(`${peers.protocol}//${server}${path}`, payload, timeoutMs, peers, proof.headers);
    if (!proof.answerProven(response.status, response.headers, response.body)) {
      return failed(server, `the answer of ${server} (HTTP ${response.status}) does not prove it comes from an instance holding the instance secret (server.auth.peer.token.file): refused`);
    }
    parsed = JSON.parse(response.body.toString("utf8")) as RemoteResult;
  } catch (error) {
    if (error instanceof NoAnswerInTime) return failed(server, `no answer from ${server} within ${Math.round(timeoutMs)} ms`, true);
    return failed(server, `cannot query ${server}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  if (response.status < 200 || response.status > 299) return failed(server, `${server} answered HTTP ${response.status}: ${parsed.message ?? "no message"}`);
  const result = parsed.result ?? {};
  const failure: FailureEntry[] = (result.failure ?? []).map((entry) => ({ server: entry.server, remote: true, errors: entry.errors }));
  if (parsed.status !== "SUCCESS" && parsed.status !== "PARTIAL") {
    const errors = failure.flatMap((entry) => entry.errors);
    return { success: [], failure: [{ server, remote: true, errors: [{ message: `${server} answered ${parsed.status}` }, ...errors] }], timeout: parsed.timeout === true };
  }
  const success = (result.success ?? []).map(({ server, total, records, standby, lag }) => ({ server, remote: true, total, records, ...(standby === undefined ? {} : { standby, lag }) }));
  return { success, failure, timeout: parsed.timeout === true };
}
