/**
 * Sluice on a cluster that requires SASL, the way users run it: a `sluice broker` process standing in for the
 * cluster, kcat as another client, and `sluice start` processes running wordcount, restarted from their commits,
 * answering queries, offsets and lag. SCRAM-SHA-512 over TLS with the password from the environment; OAUTHBEARER with
 * a token provider module and with a client-credentials endpoint, sessions shorter than the run. Refusals put the
 * application in ERROR naming the broker and the cause; no secret reaches /config or a log line.
 */
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { exportJWK, exportPKCS8, generateKeyPair, SignJWT } from "jose";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createPki, type TestPki } from "../../helpers/certificates";
import { eventually } from "../../helpers/eventually";
import { FIXTURES, http, startSluice } from "../../helpers/sluice";
import { brokerPort, runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { EXAMPLES_PACKAGE } from "../../helpers/streams";
import { runKcat, startTestBroker } from "../broker/broker-test-kit";
import { countsOf, sorted, stopProcess, trueCounts } from "./wordcount-processes";

/** wordcount's counts, its offsets answer and its config, once the counts are `expected`. */
async function wordcountAt(url: string, expected: Record<string, number>) {
  await eventually(async () => JSON.stringify(sorted((await countsOf(url)) ?? {})) === JSON.stringify(sorted(expected)), { timeoutMs: 45_000, what: "wordcount's counts" });
  const offsets = await eventually(async () => {
    const answer = (await http(`${url}/api/v1/streams/wordcount/offsets`)).json();
    return answer.consumers?.[0]?.positions.some((position: { topic: string; lag: number }) => position.topic === "words" && position.lag === 0) ? answer : undefined;
  }, { what: "words consumed to its end" });
  const config = (await http(`${url}/api/v1/streams/wordcount/config`)).json();
  return { offsets, config };
}

/**
 * The ACLs the README's security section lists for a Sluice application, here wordcount (application.id wordcount,
 * input words, output word-counts, topics created by Sluice), and those of the client that feeds and reads it.
 */
function wordcountAcls(principal: string, feeder: string): string {
  return [
    `ALLOW ${principal} READ,CREATE TOPIC:words`,
    `ALLOW ${principal} WRITE,CREATE TOPIC:word-counts`,
    `ALLOW ${principal} CREATE,DESCRIBE,READ,WRITE,DELETE TOPIC:wordcount- PREFIXED`,
    `ALLOW ${principal} READ GROUP:wordcount`,
    `ALLOW ${principal} DESCRIBE CLUSTER`,
    `ALLOW ${feeder} WRITE,CREATE TOPIC:words`,
    `ALLOW ${feeder} READ TOPIC:word-counts`,
  ].join("\n");
}

/** The other examples stay stopped: their principal has no ACLs here. */
const ONLY_WORDCOUNT = ["pageviews", "sessions", "latest"].map((id) => `--applications.${id}.autostart=false`);

function startWordcount(args: string[], env: NodeJS.ProcessEnv, stateDir: string): SluiceProcess {
  return runSluice(["start", "--server.port=0", "--log.level=debug", `--plugins.packages=${EXAMPLES_PACKAGE}`, `--streams.state.dir=${stateDir}`, ...ONLY_WORDCOUNT, ...args], { env });
}

test("SASL_SSL with SCRAM-SHA-512: wordcount counts exactly, restarts from its commits, answers offsets and lag; the password comes from the environment and shows nowhere", async () => {
  const pki: TestPki = createPki();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-sasl-state-"));
  const processes: SluiceProcess[] = [];
  const APP_PASSWORD = "app-Pa55-word-7731";
  const FEEDER_PASSWORD = "feeder-Pa55-8812";
  try {
    const certificate = pki.issue("broker", "localhost", { server: true });
    // With SASL the broker checks ACLs: Sluice's principal has only those the README documents.
    const aclsFile = path.join(stateDir, "broker-acls");
    fs.writeFileSync(aclsFile, `# wordcount and its feeder\n${wordcountAcls("User:sluice-app", "User:feeder")}\n`);
    const broker = runSluice([
      "broker",
      "--broker.port=0",
      "--broker.storage=memory",
      "--log.level=debug",
      "--broker.security.protocol=SASL_SSL",
      `--broker.ssl.certificate.location=${certificate.cert}`,
      `--broker.ssl.key.location=${certificate.key}`,
      "--broker.sasl.mechanisms=SCRAM-SHA-512",
      `--broker.sasl.users=sluice-app:${APP_PASSWORD},feeder:${FEEDER_PASSWORD}`,
      `--broker.acls=@${aclsFile}`,
    ]);
    processes.push(broker);
    const bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
    const kcatSasl = ["-X", "security.protocol=SASL_SSL", "-X", `ssl.ca.location=${pki.ca}`, "-X", "sasl.mechanisms=SCRAM-SHA-512", "-X", "sasl.username=feeder", "-X", `sasl.password=${FEEDER_PASSWORD}`];
    const feed = async (lines: string[]) => {
      const produced = await runKcat(bootstrap, [...kcatSasl, "-P", "-t", "words"], `${lines.join("\n")}\n`);
      assert.is(produced.code, 0, produced.stderr);
    };
    const settings = [
      `--streams.bootstrap.servers=${bootstrap}`,
      "--streams.auto.create.topics=true",
      "--streams.security.protocol=SASL_SSL",
      `--streams.ssl.ca.location=${pki.ca}`,
      "--streams.sasl.mechanism=SCRAM-SHA-512",
      "--streams.sasl.username=sluice-app",
      "--streams.sasl.password=${env:KAFKA_PASSWORD}",
    ];
    const env = { KAFKA_PASSWORD: APP_PASSWORD };

    const first = ["sasl guards the words", "the words count over sasl"];
    await feed(first);
    const sluice = startWordcount(settings, env, stateDir);
    processes.push(sluice);
    const url = await sluice.url(30_000);
    const { offsets, config } = await wordcountAt(url, trueCounts(first));
    assert.ok(offsets.consumers[0].positions.every((position: { lag: number }) => position.lag === 0), JSON.stringify(offsets));
    assert.is(config["sasl.password"], "[hidden]");
    assert.is(config["sasl.username"], "sluice-app");

    await stopProcess(sluice, "SIGTERM");
    const second = ["restarted over sasl", "words again"];
    await feed(second);
    const restarted = startWordcount(settings, env, stateDir);
    processes.push(restarted);
    const restartedUrl = await restarted.url(30_000);
    await wordcountAt(restartedUrl, trueCounts([...first, ...second]));
    assert.ok(restarted.logs().some((line) => line.msg === "application state changed" && line.applicationId === "wordcount" && line.to === "RUNNING"));

    const consumed = await runKcat(bootstrap, [...kcatSasl, "-C", "-t", "word-counts", "-e", "-q", "-s", "value=Q", "-f", "%k=%s\n"]);
    assert.is(consumed.code, 0, consumed.stderr);
    assert.ok(consumed.stdout.includes("sasl=3"), consumed.stdout);

    for (const process of [broker, sluice, restarted]) {
      for (const secret of [APP_PASSWORD, FEEDER_PASSWORD]) assert.not.ok(process.stderr().includes(secret) || process.stdout().includes(secret), "a password in a log line");
    }
  } finally {
    for (const process of processes.reverse()) await stopProcess(process, "SIGTERM");
    fs.rmSync(stateDir, { recursive: true, force: true });
    pki.remove();
  }
});

test("OAUTHBEARER: wordcount runs on tokens from a provider module, then from a client-credentials endpoint, through sessions that end", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-oauth-"));
  const processes: SluiceProcess[] = [];
  let endpoint: Server | undefined;
  try {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const keyFile = path.join(dir, "signing-key.pem");
    fs.writeFileSync(keyFile, await exportPKCS8(privateKey));
    const jwksFile = path.join(dir, "jwks.json");
    fs.writeFileSync(jwksFile, JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: "sluice-test", alg: "ES256" }] }));
    const broker = runSluice([
      "broker",
      "--broker.port=0",
      "--broker.storage=memory",
      "--log.level=debug",
      "--broker.security.protocol=SASL_PLAINTEXT",
      "--broker.sasl.mechanisms=OAUTHBEARER,SCRAM-SHA-256",
      "--broker.sasl.users=feeder:feeder-pass",
      `--broker.sasl.oauthbearer.jwks.endpoint.url=file:${jwksFile}`,
      "--broker.connections.max.reauth.ms=2000",
      `--broker.acls=${wordcountAcls("User:sluice-wordcount", "User:feeder").replace(/\n/g, ";")}`,
    ]);
    processes.push(broker);
    const bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
    const feed = async (lines: string[]) => {
      const produced = await runKcat(bootstrap, ["-X", "security.protocol=SASL_PLAINTEXT", "-X", "sasl.mechanisms=SCRAM-SHA-256", "-X", "sasl.username=feeder", "-X", "sasl.password=feeder-pass", "-P", "-t", "words"], `${lines.join("\n")}\n`);
      assert.is(produced.code, 0, produced.stderr);
    };
    const oauth = [`--streams.bootstrap.servers=${bootstrap}`, "--streams.auto.create.topics=true", "--streams.security.protocol=SASL_PLAINTEXT", "--streams.sasl.mechanism=OAUTHBEARER"];
    const authenticated = () => broker.logs().filter((line) => line.msg === "SASL authenticated" && line.principal === "sluice-wordcount").length;

    // Tokens of 3 s, sessions of at most 2 s: the run outlives several of each.
    const callsFile = path.join(dir, "token-calls");
    fs.writeFileSync(callsFile, "");
    const lines = ["tokens open the words", "the words count tokens"];
    await feed(lines);
    const withProvider = startWordcount(
      [...oauth, `--streams.sasl.oauthbearer.token.provider=${path.join(FIXTURES, "oauth-token-provider")}#token`],
      { OAUTH_TEST_KEY_FILE: keyFile, OAUTH_TEST_CALLS_FILE: callsFile, OAUTH_TEST_LIFETIME: "3s" },
      path.join(dir, "state-provider"),
    );
    processes.push(withProvider);
    const url = await withProvider.url(30_000);
    await wordcountAt(url, trueCounts(lines));
    const sessionsBefore = authenticated();
    const calls = () => fs.readFileSync(callsFile, "utf8").split("\n").filter(Boolean).length;
    const callsBefore = calls();
    await eventually(() => calls() >= callsBefore + 2 && authenticated() >= sessionsBefore + 4, { timeoutMs: 15_000, what: "new tokens and new sessions" });
    const later = ["later tokens count words"];
    await feed(later);
    await wordcountAt(url, trueCounts([...lines, ...later]));
    assert.not.ok(withProvider.logs().some((line) => line.level === "error"), withProvider.stderr());
    await stopProcess(withProvider, "SIGTERM");

    const grants: URLSearchParams[] = [];
    endpoint = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", async () => {
        grants.push(new URLSearchParams(body));
        if (request.headers.authorization !== `Basic ${Buffer.from("sluice-wordcount:endpoint-secret-4410").toString("base64")}`) {
          response.writeHead(401, { "content-type": "application/json" }).end(JSON.stringify({ error: "invalid_client" }));
          return;
        }
        const access = await new SignJWT({ scope: "kafka" }).setProtectedHeader({ alg: "ES256", kid: "sluice-test" }).setSubject("sluice-wordcount").setIssuedAt().setExpirationTime("60s").sign(privateKey);
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: access, token_type: "bearer", expires_in: 60 }));
      });
    });
    await new Promise<void>((resolve) => endpoint!.listen(0, "127.0.0.1", resolve));
    const secretFile = path.join(dir, "client-secret");
    fs.writeFileSync(secretFile, "endpoint-secret-4410\n");
    const withEndpoint = startWordcount(
      [
        ...oauth,
        `--streams.sasl.oauthbearer.token.endpoint.url=http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/token`,
        "--streams.sasl.oauthbearer.client.id=sluice-wordcount",
        `--streams.sasl.oauthbearer.client.secret=\${file:${secretFile}}`,
        "--streams.sasl.oauthbearer.scope=kafka",
      ],
      {},
      path.join(dir, "state-endpoint"),
    );
    processes.push(withEndpoint);
    const endpointUrl = await withEndpoint.url(30_000);
    const last = ["endpoint tokens count"];
    await feed(last);
    const { config } = await wordcountAt(endpointUrl, trueCounts([...lines, ...later, ...last]));
    assert.is(config["sasl.oauthbearer.client.secret"], "[hidden]");
    assert.ok(grants.length >= 1 && grants.every((grant) => grant.get("grant_type") === "client_credentials" && grant.get("scope") === "kafka"));
    for (const process of processes) assert.not.ok(process.stderr().includes("endpoint-secret-4410"), "the client secret in a log line");
  } finally {
    for (const process of processes.reverse()) await stopProcess(process, "SIGTERM");
    endpoint?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a wrong password, a mechanism the broker does not enable, an untrusted certificate: the application goes to ERROR naming the broker and the cause", async () => {
  const pki = createPki();
  const pair = pki.issue("broker", "localhost", { server: true });
  const broker = await startTestBroker({
    tls: { cert: fs.readFileSync(pair.cert, "utf8"), key: fs.readFileSync(pair.key, "utf8") },
    sasl: { mechanisms: ["SCRAM-SHA-512"], users: [{ name: "sluice-app", password: "right-password" }], maxReauthMs: 0 },
  });
  const base = { "plugins.packages": EXAMPLES_PACKAGE, "streams.bootstrap.servers": broker.bootstrap, "streams.security.protocol": "SASL_SSL", "streams.ssl.ca.location": pki.ca, "streams.sasl.username": "sluice-app" };
  const cases: [Record<string, string>, RegExp][] = [
    [{ "streams.sasl.mechanism": "SCRAM-SHA-512", "streams.sasl.password": "wrong-password" }, /SCRAM-SHA-512 as 'sluice-app': Authentication failed: invalid credentials with SASL mechanism SCRAM-SHA-512/],
    [{ "streams.sasl.mechanism": "SCRAM-SHA-256", "streams.sasl.password": "right-password" }, /the broker does not enable SASL mechanism SCRAM-SHA-256 \(it enables SCRAM-SHA-512\)/],
    [{ "streams.sasl.mechanism": "SCRAM-SHA-512", "streams.sasl.password": "right-password", "streams.ssl.ca.location": "" }, /TLS handshake: unable to verify the first certificate \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/],
  ];
  try {
    for (const [overrides, cause] of cases) {
      const sluice = await startSluice({ overrides: { ...base, ...overrides } });
      try {
        const described = await eventually(async () => {
          const answer = (await http(`${sluice.url}/api/v1/streams/wordcount`)).json();
          return answer.state.state === "ERROR" ? answer : undefined;
        }, { timeoutMs: 15_000, what: "wordcount in ERROR" });
        assert.match(described.exception, new RegExp(`^AuthenticationError: authentication with broker ${broker.bootstrap} failed: `));
        assert.match(described.exception, cause, described.exception);
        assert.not.match(described.exception, /password/i);
      } finally {
        await sluice.close();
      }
    }
  } finally {
    await broker.close();
    pki.remove();
  }
});

test.run();
