/**
 * Sluice's own client authenticating to the embedded broker's SASL listener: every mechanism, the refusals it cannot
 * cure (a wrong password, a mechanism the broker does not enable, a listener without SASL, an untrusted or missing
 * certificate) as AuthenticationErrors naming the broker, given up at once; SASL sessions that end, renewed on new
 * connections with tokens asked again before they expire; and the token sources themselves.
 */
import fs from "node:fs";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { BrokerOptions } from "../../../providers/broker";
import { AuthenticationError, BrokerConnectionError, clientCredentialsToken, OAuthBearerTokens, RecordProducer, type BrokerSecurity } from "../../../providers/kafka-client";
import { BrokerConnection } from "../../../providers/kafka-client/broker-connection";
import type { LogFields } from "../../../kernel/logger";
import { createPki } from "../../helpers/certificates";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";

const test = suite<{ brokers: TestBroker[]; logs: { msg: string; fields?: LogFields }[] }>("kafka-client: SASL");

const USERS = [{ name: "sluice", password: "sluice-secret" }];
let signingKey: CryptoKey;
let publicJwk: JWK;

test.before(async () => {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  signingKey = privateKey;
  publicJwk = { ...(await exportJWK(publicKey)), kid: "k", alg: "ES256" };
});

test.before.each((context) => {
  context.brokers = [];
  context.logs = [];
});

test.after.each(async ({ brokers }) => {
  for (const broker of brokers) await broker.close();
});

async function saslBroker(context: { brokers: TestBroker[]; logs: { msg: string; fields?: LogFields }[] }, options: Partial<BrokerOptions> & { maxReauthMs?: number } = {}): Promise<TestBroker> {
  const { maxReauthMs = 0, ...rest } = options;
  const record = (msg: string, fields?: LogFields) => context.logs.push({ msg, fields });
  const broker = await startTestBroker({
    sasl: { mechanisms: ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"], users: USERS, oauthbearer: { jwks: { keys: [publicJwk] } }, maxReauthMs },
    logger: { debug: record, info: record, warn: record, error: record },
    ...rest,
  });
  context.brokers.push(broker);
  const admin = broker.kafka({ sasl: { mechanism: "scram-sha-512", username: "sluice", password: "sluice-secret" }, ssl: rest.tls && { rejectUnauthorized: false } }).admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "sasl-client" }, { topic: "sessions" }] });
  context.logs.length = 0;
  return broker;
}

const token = (lifetime: string) => new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: "k" }).setSubject("svc").setIssuedAt().setExpirationTime(lifetime).sign(signingKey);

async function produceOne(bootstrap: string, security: BrokerSecurity, topic = "sasl-client"): Promise<void> {
  const producer = new RecordProducer({ bootstrapServers: [bootstrap], clientId: "sasl-test", ...security });
  try {
    await producer.connect();
    await producer.send([{ topic, partition: 0, records: [{ key: null, value: Buffer.from("v"), timestamp: Date.now() }] }]);
  } finally {
    await producer.close();
  }
}

async function refusal(bootstrap: string, security: BrokerSecurity): Promise<AuthenticationError> {
  const producer = new RecordProducer({ bootstrapServers: [bootstrap], clientId: "sasl-test", ...security });
  try {
    await producer.connect();
  } catch (error) {
    return error as AuthenticationError;
  } finally {
    await producer.close();
  }
  throw new Error("connected");
}

test("the producer authenticates with PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 and OAUTHBEARER and writes", async (context) => {
  const broker = await saslBroker(context);
  for (const mechanism of ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"] as const) await produceOne(broker.bootstrap, { sasl: { mechanism, username: "sluice", password: "sluice-secret" } });
  await produceOne(broker.bootstrap, { sasl: { mechanism: "OAUTHBEARER", token: () => token("1h") } });
  const authenticated = context.logs.filter(({ msg }) => msg === "SASL authenticated").map(({ fields }) => `${fields?.mechanism} ${fields?.principal}`);
  assert.equal([...new Set(authenticated)], ["PLAIN sluice", "SCRAM-SHA-256 sluice", "SCRAM-SHA-512 sluice", "OAUTHBEARER svc"]);
});

test("refusals are AuthenticationErrors naming the broker and the cause, given up at the first attempt", async (context) => {
  const broker = await saslBroker(context, {});
  const scramOnly = await saslBroker(context, { sasl: { mechanisms: ["SCRAM-SHA-512"], users: USERS, maxReauthMs: 0 } });
  const plainListener = await startTestBroker();
  context.brokers.push(plainListener);
  const cases: [string, BrokerSecurity, RegExp][] = [
    [broker.bootstrap, { sasl: { mechanism: "SCRAM-SHA-512", username: "sluice", password: "wrong" } }, /SCRAM-SHA-512 as 'sluice': Authentication failed: invalid credentials with SASL mechanism SCRAM-SHA-512$/],
    [scramOnly.bootstrap, { sasl: { mechanism: "SCRAM-SHA-256", username: "sluice", password: "sluice-secret" } }, /the broker does not enable SASL mechanism SCRAM-SHA-256 \(it enables SCRAM-SHA-512\)/],
    [plainListener.bootstrap, { sasl: { mechanism: "PLAIN", username: "sluice", password: "sluice-secret" } }, /the broker's listener does not take SASL \(check security.protocol\)/],
    [broker.bootstrap, { sasl: { mechanism: "OAUTHBEARER", token: () => token("-5 minutes") } }, /OAUTHBEARER: the broker refused the token: \{"status":"invalid_token"\}|"exp" claim timestamp check failed/],
    [broker.bootstrap, { sasl: { mechanism: "OAUTHBEARER", token: () => Promise.reject(new Error("the vault is sealed")) } }, /OAUTHBEARER: no token: the vault is sealed/],
  ];
  for (const [bootstrap, security, cause] of cases) {
    const started = Date.now();
    const error = await refusal(bootstrap, security);
    assert.instance(error, AuthenticationError, String(error));
    assert.ok(error.message.startsWith(`authentication with broker ${bootstrap} failed: `), error.message);
    assert.match(error.message, cause);
    assert.not.match(error.message, /sluice-secret/);
    assert.ok(Date.now() - started < 5_000, "no retries");
  }
});

test("TLS that refuses the client is an AuthenticationError too: an untrusted broker certificate, a missing client certificate", async (context) => {
  const pki = createPki();
  try {
    const pair = pki.issue("broker", "localhost", { server: true });
    const tls = { cert: fs.readFileSync(pair.cert, "utf8"), key: fs.readFileSync(pair.key, "utf8") };
    const broker = await saslBroker(context, { tls });
    const mutual = await startTestBroker({ tls: { ...tls, ca: fs.readFileSync(pki.ca, "utf8") } });
    context.brokers.push(mutual);
    const sasl = { mechanism: "SCRAM-SHA-256", username: "sluice", password: "sluice-secret" } as const;
    await produceOne(broker.bootstrap, { tls: { ca: fs.readFileSync(pki.ca) }, sasl });
    const untrusted = await refusal(broker.bootstrap, { tls: {}, sasl });
    assert.instance(untrusted, AuthenticationError);
    assert.match(untrusted.message, /failed: TLS handshake: .*certificate.* \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\)/);
    const noCertificate = await refusal(mutual.bootstrap, { tls: { ca: fs.readFileSync(pki.ca) } });
    assert.instance(noCertificate, AuthenticationError);
    assert.match(noCertificate.message, /TLS handshake: .*certificate.* \(ERR_SSL_/, noCertificate.message);
  } finally {
    pki.remove();
  }
});

test("when SASL sessions end, the client opens new connections that authenticate again, with tokens asked again before they expire", async (context) => {
  // Sessions of 1.5 s: the client retires a connection at 85 % of its session, and the 225 ms left must cover the
  // event-loop stalls of a loaded machine (with 0.8 s sessions, 120 ms, a request now and then arrived late under load).
  const broker = await saslBroker(context, { maxReauthMs: 1_500 });
  let asked = 0;
  const tokens = new OAuthBearerTokens(async () => {
    asked++;
    return { value: await token("2s") };
  });
  const producer = new RecordProducer({ bootstrapServers: [broker.bootstrap], clientId: "sessions", sasl: { mechanism: "OAUTHBEARER", token: tokens.token } });
  try {
    await producer.connect();
    const started = Date.now();
    let sent = 0;
    // Writes for three token lifetimes, one after the other: none may fail as sessions end.
    while (Date.now() - started < 6_000) {
      await producer.send([{ topic: "sessions", partition: 0, records: [{ key: null, value: Buffer.from(String(sent)), timestamp: Date.now() }] }]);
      sent++;
    }
    const sessions = context.logs.filter(({ msg }) => msg === "SASL authenticated").length;
    assert.ok(sessions >= 4, `${sessions} sessions in 6 s of 1.5 s sessions`);
    assert.ok(asked >= 3, `${asked} tokens for 6 s of 2 s tokens`);
    assert.not.ok(context.logs.some(({ fields }) => /expired/.test(String(fields?.reason))), "no request after a session ended");
  } finally {
    await producer.close();
  }
});

test("a token is shared until 80% of its life, and concurrent askers share one request", async () => {
  let asked = 0;
  const lifeMs = 500;
  const tokens = new OAuthBearerTokens(async () => ({ value: `t${++asked}`, expiresAt: Date.now() + lifeMs }));
  assert.equal(await Promise.all([tokens.token(), tokens.token(), tokens.token()]), ["t1", "t1", "t1"]);
  assert.is(await tokens.token(), "t1");
  const started = Date.now();
  while (Date.now() - started < lifeMs * 0.85) await new Promise((resolve) => setImmediate(resolve));
  assert.is(await tokens.token(), "t2");
  const opaque = new OAuthBearerTokens(async () => ({ value: `o${++asked}` }));
  assert.not.equal(await opaque.token(), await opaque.token(), "a token without an expiry is asked for each time");
});

async function tokenEndpoint(answer: (request: IncomingMessage, body: string) => { status: number; json: unknown }): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => {
      const { status, json } = answer(request, body);
      response.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oauth/token`, server };
}

test("the client-credentials grant: id and secret in HTTP Basic, the scope, expires_in; refusals name the endpoint, never the secret", async () => {
  const seen: { authorization?: string; body: string }[] = [];
  const { url, server } = await tokenEndpoint((request, body) => {
    seen.push({ authorization: request.headers.authorization, body });
    return request.headers.authorization === `Basic ${Buffer.from("sluice%3Aapp:s%C3%A9cret").toString("base64")}`
      ? { status: 200, json: { access_token: "tok-1", token_type: "bearer", expires_in: 300 } }
      : { status: 401, json: { error: "invalid_client", error_description: "bad client credentials" } };
  });
  try {
    const before = Date.now();
    const granted = await clientCredentialsToken({ endpoint: url, clientId: "sluice:app", clientSecret: "sécret", scope: "kafka" });
    assert.is(granted.value, "tok-1");
    assert.ok(granted.expiresAt! >= before + 300_000 && granted.expiresAt! <= Date.now() + 300_000);
    assert.equal(Object.fromEntries(new URLSearchParams(seen[0].body)), { grant_type: "client_credentials", scope: "kafka" });
    try {
      await clientCredentialsToken({ endpoint: url, clientId: "sluice:app", clientSecret: "wrong-secret" });
      assert.unreachable("a wrong secret gets a token");
    } catch (error) {
      assert.is((error as Error).message, `token endpoint ${url} answered HTTP 401 (invalid_client: bad client credentials)`);
    }
  } finally {
    server.close();
  }
  try {
    await clientCredentialsToken({ endpoint: url, clientId: "a", clientSecret: "b", timeoutMs: 2_000 });
    assert.unreachable("a closed endpoint gives a token");
  } catch (error) {
    assert.match((error as Error).message, new RegExp(`^token endpoint ${url} unreachable: `));
  }
});

test("a connection lost for other reasons stays a BrokerConnectionError, which the clients retry", async () => {
  const error = await BrokerConnection.open("127.0.0.1:1", { clientId: "t", connectTimeoutMs: 2_000, requestTimeoutMs: 2_000, maxResponseBytes: 1 << 20, sasl: { mechanism: "PLAIN", username: "u", password: "p" } }).catch((caught: unknown) => caught);
  assert.instance(error, BrokerConnectionError);
});

test.run();
