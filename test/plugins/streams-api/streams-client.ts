/** HTTP calls on /api/v1/streams/{id}/… of a running Sluice, for the streams-api tests. */
import { eventually } from "../../helpers/eventually";
import { http, type HttpResult } from "../../helpers/sluice";

export const ZONED_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{0,2}[1-9])?(Z|[+-]\d{2}:\d{2})\[[^\]]+\]$/;

/** `headers`: sent with every GET (credentials). */
export function streamsClient(baseUrl: string, id: string, headers: Record<string, string> = {}) {
  const url = (path: string) => `${baseUrl}/api/v1/streams/${id}${path}`;
  const client = {
    get: (path = "", init?: RequestInit): Promise<HttpResult> => http(url(path), { ...init, headers: { ...headers, ...(init?.headers as Record<string, string>) } }),
    json: async (path = "") => {
      const res = await http(url(path), { headers });
      if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text}`);
      return res.json();
    },
    post: (path: string, body?: string, contentType = "application/json") =>
      http(url(path), { method: "POST", body, headers: body === undefined ? {} : { "content-type": contentType } }),
    stop: (body?: string, method = "DELETE", contentType = "application/json") =>
      http(url("/stop"), { method, body, headers: body === undefined ? {} : { "content-type": contentType } }),
    metricValue: async (group: string, name: string) => (await http(url(`/metrics/group/${group}/name/${name}/value`))).text,
    waitForState: (states: string[], timeoutMs = 20_000) =>
      eventually(async () => states.includes((await client.json()).state.state), { timeoutMs, what: `${id} in ${states.join(" or ")}` }),
  };
  return client;
}
