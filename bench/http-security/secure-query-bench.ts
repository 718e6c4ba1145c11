/**
 * The cost of HTTP security on the hottest route: local `get` requests/s over HTTPS with a JWT bearer token
 * (ES256, verified on every request) ÷ plain HTTP without authentication, in the same run. Two Sluice instances
 * with the example applications (each its own embedded broker and the same keys in its counts store) take
 * turns, round after round, since this machine's speed drifts from minute to minute. The load comes from a
 * forked child over keep-alive connections.
 *
 *   node dist/bench/http-security/secure-query-bench.js [--keys=10000] [--seconds=4] [--rounds=3] [--connections=16]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { exportSPKI, generateKeyPair, SignJWT } from "jose";
import { createPki } from "../../test/helpers/certificates";
import { eventually } from "../../test/helpers/eventually";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../test/helpers/streams";
import { request } from "../../test/helpers/tls-client";
import { loadInChild as load, type HttpLoadRequest } from "../http-load";
import { numberArgument } from "../bench-arguments";

const KEYS = numberArgument("keys", 10_000);
const SECONDS = numberArgument("seconds", 4);
const ROUNDS = numberArgument("rounds", 3);
const CONNECTIONS = numberArgument("connections", 16);
const WORDS_PER_LINE = 1_000;
const word = (index: number) => `w${String(index).padStart(7, "0")}`;

const COUNT = JSON.stringify({ type: "key_value", query: { count: {} } });

/** Writes the keys to the instance's input topic and waits until its store holds them all. */
async function fill(sluice: SluiceWithExamples, url: string, options: { headers?: Record<string, string>; ca?: string }): Promise<void> {
  for (let line = 0; line * WORDS_PER_LINE < KEYS; line++) {
    const words = Array.from({ length: Math.min(WORDS_PER_LINE, KEYS - line * WORDS_PER_LINE) }, (_, i) => word(line * WORDS_PER_LINE + i));
    await sluice.produce("words", [{ value: words.join(" ") }]);
  }
  await eventually(
    async () => {
      const answer = (await request(url, { method: "POST", body: COUNT, ...options })).json();
      return answer.status === "SUCCESS" && answer.result.success[0].records[0].value >= KEYS;
    },
    { timeoutMs: 120_000, intervalMs: 300, what: `${KEYS} keys in the counts store` },
  );
}

async function main(): Promise<void> {
  const pki = createPki();
  const server = pki.issue("server", "bench", { server: true });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-secure-bench-"));
  const { publicKey, privateKey } = await generateKeyPair("ES256");
  const publicKeyFile = path.join(dir, "jwt.pem");
  fs.writeFileSync(publicKeyFile, await exportSPKI(publicKey));
  const token = await new SignJWT({ roles: ["viewer"] }).setProtectedHeader({ alg: "ES256" }).setSubject("bench").setIssuer("bench-idp").setAudience("sluice").setExpirationTime("1h").sign(privateKey);
  const plain = await startSluiceWithExamples();
  const secure = await startSluiceWithExamples({
    "server.ssl.enable": "true",
    "server.ssl.key.location": server.key,
    "server.ssl.certificate.location": server.cert,
    "server.auth.mechanism": "bearer",
    "server.auth.jwt.public.key.location": publicKeyFile,
    "server.auth.jwt.issuer": "bench-idp",
    "server.auth.jwt.audience": "sluice",
  });
  const ca = fs.readFileSync(pki.ca, "utf8");
  const headers = { Authorization: `Bearer ${token}` };
  const store = "/api/v1/applications/wordcount/stores/counts";
  const plainUrl = `${plain.url}${store}`;
  const secureUrl = `https://${secure.kernel.serverAddress()}${store}`;
  try {
    await fill(plain, plainUrl, {});
    await fill(secure, secureUrl, { headers, ca: pki.ca });
    const gets = Array.from({ length: 2_000 }, () => JSON.stringify({ type: "key_value", query: { get: { key: word(Math.floor(Math.random() * KEYS)) } } }));
    const runs: Record<"plain" | "secure", HttpLoadRequest> = {
      plain: { url: plainUrl, bodies: gets, seconds: SECONDS, connections: CONNECTIONS },
      secure: { url: secureUrl, bodies: gets, seconds: SECONDS, connections: CONNECTIONS, headers, ca },
    };
    await load({ ...runs.plain, seconds: 1 });
    await load({ ...runs.secure, seconds: 1 });
    const rates = { plain: [] as number[], secure: [] as number[] };
    for (let round = 1; round <= ROUNDS; round++) {
      for (const kind of ["plain", "secure"] as const) {
        const result = await load(runs[kind]);
        if (result.errors > 0) throw new Error(`${kind} round ${round}: ${result.errors} requests failed`);
        rates[kind].push(result.requestsPerSecond);
        console.log(`round ${round}: local get, ${kind === "plain" ? "HTTP, no auth      " : "HTTPS + JWT bearer  "} ${result.requestsPerSecond.toFixed(0).padStart(6)} req/s  p50 ${result.p50Ms.toFixed(2)} ms  p99 ${result.p99Ms.toFixed(2)} ms`);
      }
    }
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    console.log(`HTTPS + JWT bearer ÷ plain HTTP (local get, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s): ${((100 * sum(rates.secure)) / sum(rates.plain)).toFixed(1)} %`);
  } finally {
    await plain.close();
    await secure.close();
    pki.remove();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
