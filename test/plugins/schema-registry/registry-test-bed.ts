/** What the built-in registry's tests share: Sluice on a fresh broker data dir, restarts on the same dir, requests in Confluent's media type. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { SchemaRegistryClient } from "@confluentinc/schemaregistry";
import * as assert from "uvu/assert";
import { http, startSluice, type HttpResult, type RunningSluice } from "../../helpers/sluice";

export const ORDER = { type: "record", name: "Order", namespace: "shop", fields: [{ name: "id", type: "string" }, { name: "amount", type: "double" }] };
export const ORDER_V2 = { ...ORDER, fields: [...ORDER.fields, { name: "note", type: ["null", "string"], default: null }] };
export const avro = (schema: object) => ({ schemaType: "AVRO", schema: JSON.stringify(schema, null, 2) });
export const compact = (schema: object) => JSON.stringify(schema);
export const MEDIA_TYPE = "application/vnd.schemaregistry.v1+json";

/** Sluice with its broker's logs on disk under `dataDir`, so a second start finds what the first wrote. */
export const startOn = (dataDir: string, overrides: Record<string, string> = {}) =>
  startSluice({ overrides: { "broker.storage": "file", "broker.data.dir": dataDir, ...overrides } });

/** A client with empty caches: what it answers comes from the registry. */
export const clientOf = (sluice: RunningSluice) => new SchemaRegistryClient({ baseURLs: [`${sluice.url}/schema-registry`] });

export async function withBrokerDir(run: (dataDir: string) => Promise<void>): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-registry-"));
  try {
    await run(dataDir);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** One Sluice on a fresh broker data dir, closed whatever `run` does. */
export const withSluice = (run: (sluice: RunningSluice) => Promise<void>) =>
  withBrokerDir(async (dataDir) => {
    const sluice = await startOn(dataDir);
    try {
      await run(sluice);
    } finally {
      await sluice.close();
    }
  });

/** `before` on a Sluice, then `after` on another started on the same broker data: what the first wrote must last. */
export const acrossRestart = (before: (sluice: RunningSluice) => Promise<void>, after: (sluice: RunningSluice) => Promise<void>) =>
  withBrokerDir(async (dataDir) => {
    for (const run of [before, after]) {
      const sluice = await startOn(dataDir);
      try {
        await run(sluice);
      } finally {
        await sluice.close();
      }
    }
  });

/** Requests to one Sluice's /schema-registry, JSON bodies in Confluent's media type. */
export function registryCalls(sluice: RunningSluice, headers: Record<string, string> = {}) {
  const base = `${sluice.url}/schema-registry`;
  const call = (method: string, route: string, body?: unknown) =>
    http(`${base}${route}`, { method, headers: { "content-type": MEDIA_TYPE, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return {
    get: (route: string) => call("GET", route),
    post: (route: string, body: unknown) => call("POST", route, body),
    put: (route: string, body: unknown) => call("PUT", route, body),
    remove: (route: string) => call("DELETE", route),
  };
}

/** The answer is Confluent's error: this status and error_code, with a message. */
export async function expectError(answer: Promise<HttpResult>, status: number, code: number): Promise<void> {
  const { status: got, json } = await answer;
  assert.equal([got, json().error_code], [status, code], JSON.stringify(json()));
  assert.type(json().message, "string");
}
