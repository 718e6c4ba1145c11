/** Deploy, terminate, pause and resume calls of the deployment tests, and a deployed wordcount on topics of its own. */
import fs from "node:fs";
import path from "node:path";
import { http, type HttpResult } from "../../helpers/sluice";
import { writeUsersFile } from "../../helpers/users-file";

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

/** The password of the users `deployersOn` writes. */
export const DEPLOYER_PASSWORD = "correct horse battery";
export const basicAs = (user: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${DEPLOYER_PASSWORD}`).toString("base64")}` });

/**
 * Writes a users file with operator `otto` and admin `ada`, and a deployments key, into `dir`: the overrides of a
 * Sluice that takes deploys over basic authentication and seals the secrets they carry.
 */
export async function deployersOn(dir: string): Promise<Record<string, string>> {
  const users = await writeUsersFile(dir, DEPLOYER_PASSWORD, { otto: "operator", ada: "admin" });
  const key = path.join(dir, "deployments.key");
  fs.writeFileSync(key, "a key of the trusted configuration\n");
  return {
    "streams.deployments.key.location": key,
    "server.auth.mechanism": "basic",
    "server.auth.users.file": users,
    "server.auth.failure.delay.ms": "0",
  };
}

/** Deploys a wordcount (wordcountOn the config's application.id) as `user`, with `config` over its own. */
export const deployWordcountAs = (url: string, user: string, config: Record<string, unknown>): Promise<HttpResult> =>
  http(`${url}/api/v1/streams`, {
    method: "POST",
    headers: { ...basicAs(user), "Content-Type": "application/json" },
    body: JSON.stringify({ topology: "WordCount", config: { ...wordcountOn(String(config["application.id"])).config, ...config } }),
  });
