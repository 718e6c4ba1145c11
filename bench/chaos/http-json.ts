/** Plain HTTP calls of a chaos run, each bounded by a timeout, never throwing for an HTTP status. */
import http from "node:http";

export interface JsonAnswer {
  status: number;
  body: unknown;
  /** The body did not parse as JSON. */
  malformed: boolean;
}

/**
 * One keep-alive pool for the whole run, closed by `closeHttpClients` before the instances are killed. Idle pooled
 * sockets are unref'd (by fetch's pool too): left open to a process killed at the end, their reset is never read,
 * and Node 20 could then spin forever in its exit clean-up (the test process did not end after the summary).
 */
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

/** No whole answer within the call's timeout. */
export class AnswerTimeout extends Error {}

export function requestJson(url: string, init: { method?: string; body?: unknown; timeoutMs: number }): Promise<JsonAnswer> {
  const payload = init.body === undefined ? undefined : JSON.stringify(init.body);
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: init.method ?? "GET", agent, headers: payload === undefined ? {} : { "content-type": "application/json" } }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("error", reject);
      response.on("end", () => {
        try {
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), malformed: false });
        } catch {
          resolve({ status: response.statusCode ?? 0, body: text, malformed: true });
        }
      });
    });
    const deadline = setTimeout(() => request.destroy(new AnswerTimeout(`no answer from ${url} within ${init.timeoutMs} ms`)), init.timeoutMs);
    request.on("close", () => clearTimeout(deadline));
    request.on("error", reject);
    request.end(payload);
  });
}

/** Closes every pooled connection. */
export function closeHttpClients(): void {
  agent.destroy();
}

export function storeQuery(query: Record<string, unknown>, options: Record<string, unknown>, type = "key_value") {
  return { type, set_options: options, query };
}
