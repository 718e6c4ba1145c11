/** Deploy, terminate, pause and resume calls of the deployment tests, and a deployed wordcount on topics of its own. */
import { http, type HttpResult } from "../../helpers/sluice";

const json = (method: string, body: unknown) => ({
  method,
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

export const deploy = (url: string, body: unknown): Promise<HttpResult> => http(`${url}/api/v1/streams`, json("POST", body));

export const terminate = (url: string, id: string, body?: unknown): Promise<HttpResult> =>
  http(`${url}/api/v1/streams/${id}`, body === undefined ? { method: "DELETE" } : json("DELETE", body));

export const pause = (url: string, id: string): Promise<HttpResult> => http(`${url}/api/v1/streams/${id}/pause`, { method: "POST" });

export const resume = (url: string, id: string): Promise<HttpResult> => http(`${url}/api/v1/streams/${id}/resume`, { method: "POST" });

/** The deploy request of a wordcount reading `<id>-words` and writing `<id>-counts`. */
export const wordcountOn = (id: string) => ({
  topology: "WordCount",
  config: { "application.id": id, "input.topic": `${id}-words`, "output.topic": `${id}-counts`, "commit.interval.ms": 50 },
});
