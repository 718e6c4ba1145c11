/**
 * The embedded broker's SASL listener at the wire: what an unauthenticated connection may send, PLAIN and SCRAM over
 * SaslAuthenticate and over bare tokens (SaslHandshake v0), refusals answered and closed, OAUTHBEARER tokens checked
 * against a key set, session lifetimes and re-authentication; and kafkajs authenticating with each password mechanism.
 */
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";
import type { SASLOptions } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { BrokerSasl } from "../../../providers/broker/sasl/sasl-server";
import { ErrorCode } from "../../../providers/kafka-protocol/error-codes";
import { ApiVersions } from "../../../providers/kafka-protocol/messages/api-versions";
import { Metadata } from "../../../providers/kafka-protocol/messages/metadata";
import { SaslAuthenticate } from "../../../providers/kafka-protocol/messages/sasl-authenticate";
import { SaslHandshake } from "../../../providers/kafka-protocol/messages/sasl-handshake";
import { encodeOAuthBearer, OAUTHBEARER_ERROR_ACK } from "../../../providers/kafka-protocol/sasl/oauthbearer";
import { encodePlain } from "../../../providers/kafka-protocol/sasl/plain";
import type { LogFields } from "../../../kernel/logger";
import { eventually } from "../../helpers/eventually";
import { startTestBroker, type TestBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";

interface Context {
  broker: TestBroker;
  raw: RawKafkaClient[];
  logs: { msg: string; fields?: LogFields }[];
}

/** The key that signs the tests' tokens, and its public half as the broker's key set holds it. */
let signingKey: CryptoKey;
let publicJwk: JWK;

const test = suite<Context>("broker: SASL listener");

const USERS = [
  { name: "alice", password: "alice-secret" },
  { name: "bob", password: "bob:with:colons" },
];

async function startSaslBroker(context: Context, sasl: Partial<BrokerSasl> = {}): Promise<void> {
  await context.broker?.close();
  const record = (msg: string, fields?: LogFields) => context.logs.push({ msg, fields });
  context.broker = await startTestBroker({
    sasl: { mechanisms: ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"], users: USERS, oauthbearer: { jwks: { keys: [publicJwk] } }, maxReauthMs: 0, ...sasl },
    logger: { debug: record, info: record, warn: record, error: record },
  });
}

test.before(async () => {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  signingKey = privateKey;
  publicJwk = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "ES256" };
});

test.before.each(async (context) => {
  context.raw = [];
  context.logs = [];
  await startSaslBroker(context);
});

test.after.each(async ({ broker, raw }) => {
  for (const client of raw) client.close();
  await broker.close();
});

async function rawClient(context: Context): Promise<RawKafkaClient> {
  const client = await RawKafkaClient.connect(context.broker.broker.port);
  context.raw.push(client);
  return client;
}

const isClosed = (client: RawKafkaClient) => Promise.race([client.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref())]);

const METADATA_ALL = { topics: null, allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false };

function token(subject: string, expiresIn: string, key = signingKey): Promise<string> {
  return new SignJWT({}).setProtectedHeader({ alg: "ES256", kid: "test-key" }).setSubject(subject).setIssuedAt().setExpirationTime(expiresIn).sign(key);
}

async function authenticatePlain(client: RawKafkaClient, username: string, password: string) {
  const handshake = await client.request(SaslHandshake, 1, { mechanism: "PLAIN" });
  assert.is(handshake.errorCode, ErrorCode.NONE);
  return client.request(SaslAuthenticate, 1, { authBytes: encodePlain({ username, password }) });
}

test("before authenticating, a connection may ask ApiVersions; any other request closes it", async (context) => {
  const client = await rawClient(context);
  const versions = await client.request(ApiVersions, 2, {});
  const ranges = new Map(versions.apiKeys.map(({ apiKey, minVersion, maxVersion }) => [apiKey, `${minVersion}-${maxVersion}`]));
  assert.is(ranges.get(SaslHandshake.apiKey), "0-1");
  assert.is(ranges.get(SaslAuthenticate.apiKey), "0-1");
  client.send(Metadata, 4, METADATA_ALL);
  assert.ok(await isClosed(client), "Metadata before authentication closes the connection");
  const early = await rawClient(context);
  early.send(SaslAuthenticate, 1, { authBytes: encodePlain({ username: "alice", password: "alice-secret" }) });
  assert.ok(await isClosed(early), "SaslAuthenticate before SaslHandshake closes the connection");
  assert.ok(context.logs.some(({ fields }) => String(fields?.reason).includes("Metadata request before SASL authentication")));
});

test("PLAIN: the right password opens the connection to every request; a wrong one, or an unknown user, is refused with a message and closed", async (context) => {
  const client = await rawClient(context);
  const ok = await authenticatePlain(client, "bob", "bob:with:colons");
  assert.equal([ok.errorCode, ok.errorMessage, ok.sessionLifetimeMs], [ErrorCode.NONE, null, 0n]);
  assert.is((await client.request(Metadata, 4, METADATA_ALL)).brokers.length, 1);

  for (const [username, password] of [["alice", "wrong"], ["mallory", "alice-secret"]]) {
    const refused = await rawClient(context);
    const answer = await authenticatePlain(refused, username, password);
    assert.is(answer.errorCode, ErrorCode.SASL_AUTHENTICATION_FAILED);
    // The same words whether or not the user exists.
    assert.is(answer.errorMessage, "Authentication failed: invalid credentials with SASL mechanism PLAIN");
    assert.ok(await isClosed(refused), `closed after ${username}'s failure`);
  }
  assert.not.ok(JSON.stringify(context.logs).includes("alice-secret"), "no password in the broker's log");
});

test("PLAIN: password checks across connections are bounded; past the queue a login fails at once, unchecked, and closes; a correct client still gets in", async (context) => {
  await startSaslBroker(context, { plainCheckConcurrency: 1, plainCheckQueueSize: 1 });
  const flood = await Promise.all(Array.from({ length: 16 }, () => rawClient(context)));
  for (const client of flood) assert.is((await client.request(SaslHandshake, 1, { mechanism: "PLAIN" })).errorCode, ErrorCode.NONE);
  // All at once, so that they find one check running and one waiting.
  const answers = await Promise.all(flood.map((client) => client.request(SaslAuthenticate, 1, { authBytes: encodePlain({ username: "alice", password: "wrong" }) })));
  assert.ok(answers.every(({ errorCode }) => errorCode === ErrorCode.SASL_AUTHENTICATION_FAILED));
  const busy = answers.filter(({ errorMessage }) => /not checked, the broker is busy/.test(errorMessage ?? ""));
  const checked = answers.filter(({ errorMessage }) => errorMessage === "Authentication failed: invalid credentials with SASL mechanism PLAIN");
  assert.ok(busy.length > 0, `some logins past the queue were not checked: ${JSON.stringify(answers.map(({ errorMessage }) => errorMessage))}`);
  assert.ok(checked.length >= 2, "the running check and the waiting one were answered");
  assert.is(busy.length + checked.length, flood.length);
  for (const client of flood) assert.ok(await isClosed(client), "every refused connection closes");

  const client = await rawClient(context);
  assert.is((await authenticatePlain(client, "alice", "alice-secret")).errorCode, ErrorCode.NONE);
  assert.is((await client.request(Metadata, 4, METADATA_ALL)).brokers.length, 1);
});

test("a request sent right behind the SaslAuthenticate that completes the exchange waits for it, and is served", async (context) => {
  const client = await rawClient(context);
  await client.request(SaslHandshake, 1, { mechanism: "PLAIN" });
  // One write, so that both frames arrive in one read.
  client.writeRaw(Buffer.concat([client.frame(SaslAuthenticate, 1, { authBytes: encodePlain({ username: "alice", password: "alice-secret" }) }), client.frame(Metadata, 4, METADATA_ALL)]));
  const next = () => Promise.race([client.next(), client.closed.then(() => Promise.reject(new Error("the broker closed the connection")))]);
  assert.is(RawKafkaClient.decode(SaslAuthenticate, 1, await next()).errorCode, ErrorCode.NONE);
  assert.is(RawKafkaClient.decode(Metadata, 4, await next()).brokers.length, 1);
});

test("a mechanism the listener does not enable is answered UNSUPPORTED_SASL_MECHANISM with those it does, and closed", async (context) => {
  await startSaslBroker(context, { mechanisms: ["SCRAM-SHA-512"] });
  const client = await rawClient(context);
  const answer = await client.request(SaslHandshake, 1, { mechanism: "PLAIN" });
  assert.equal([answer.errorCode, answer.mechanisms], [ErrorCode.UNSUPPORTED_SASL_MECHANISM, ["SCRAM-SHA-512"]]);
  assert.ok(await isClosed(client));
});

test("SaslHandshake v0: the tokens follow as bare frames, answered as bare frames; a failure closes the connection unanswered", async (context) => {
  const client = await rawClient(context);
  const handshake = await client.request(SaslHandshake, 0, { mechanism: "PLAIN" });
  assert.equal(handshake.mechanisms, ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER"]);
  client.sendBare(encodePlain({ username: "alice", password: "alice-secret" }));
  assert.is((await client.nextFrame()).length, 0, "PLAIN's empty answer");
  assert.is((await client.request(Metadata, 4, METADATA_ALL)).brokers.length, 1);

  const refused = await rawClient(context);
  await refused.request(SaslHandshake, 0, { mechanism: "PLAIN" });
  refused.sendBare(encodePlain({ username: "alice", password: "nope" }));
  assert.ok(await isClosed(refused));
});

test("a listener without SASL answers SaslHandshake and SaslAuthenticate with ILLEGAL_SASL_STATE", async (context) => {
  await context.broker.close();
  context.broker = await startTestBroker();
  const client = await rawClient(context);
  assert.is((await client.request(SaslHandshake, 1, { mechanism: "PLAIN" })).errorCode, ErrorCode.ILLEGAL_SASL_STATE);
  assert.is((await client.request(SaslAuthenticate, 1, { authBytes: Buffer.alloc(0) })).errorCode, ErrorCode.ILLEGAL_SASL_STATE);
});

test("OAUTHBEARER: a token signed by the key set names the principal; an expired or foreign one gets the RFC 7628 challenge, then the failure", async (context) => {
  const client = await rawClient(context);
  await client.request(SaslHandshake, 1, { mechanism: "OAUTHBEARER" });
  const accepted = await client.request(SaslAuthenticate, 1, { authBytes: encodeOAuthBearer({ token: await token("svc-wordcount", "1h"), extensions: new Map() }) });
  assert.is(accepted.errorCode, ErrorCode.NONE);
  assert.ok(context.logs.some(({ msg, fields }) => msg === "SASL authenticated" && fields?.principal === "svc-wordcount"));

  const foreign = (await generateKeyPair("ES256")).privateKey;
  for (const [bearer, reason] of [
    [await token("svc", "-1 minute"), /"exp" claim timestamp check failed/],
    [await token("svc", "1h", foreign), /signature verification failed/],
  ] as const) {
    const refused = await rawClient(context);
    await refused.request(SaslHandshake, 1, { mechanism: "OAUTHBEARER" });
    const challenge = await refused.request(SaslAuthenticate, 1, { authBytes: encodeOAuthBearer({ token: bearer, extensions: new Map() }) });
    assert.is(challenge.errorCode, ErrorCode.NONE);
    assert.equal(JSON.parse(challenge.authBytes.toString()), { status: "invalid_token" });
    const failure = await refused.request(SaslAuthenticate, 1, { authBytes: OAUTHBEARER_ERROR_ACK });
    assert.is(failure.errorCode, ErrorCode.SASL_AUTHENTICATION_FAILED);
    assert.match(String(failure.errorMessage), reason);
    assert.ok(await isClosed(refused));
  }
});

test("with a session lifetime, a client authenticates again on its connection before it ends; a request after it ends closes the connection", async (context) => {
  await startSaslBroker(context, { maxReauthMs: 1_000 });
  const client = await rawClient(context);
  const first = await authenticatePlain(client, "alice", "alice-secret");
  assert.ok(first.sessionLifetimeMs > 0n && first.sessionLifetimeMs <= 1_000n, String(first.sessionLifetimeMs));
  const renewed = await authenticatePlain(client, "alice", "alice-secret");
  assert.is(renewed.errorCode, ErrorCode.NONE);
  assert.ok(context.logs.some(({ msg }) => msg === "SASL session renewed"));
  // The renewed session ends in turn: a request after that closes the connection.
  await eventually(async () => {
    client.send(Metadata, 4, METADATA_ALL);
    return isClosed(client);
  }, { timeoutMs: 5_000, what: "the session to end" });
  assert.ok(context.logs.some(({ fields }) => /Metadata request after the SASL session of 'alice' expired/.test(String(fields?.reason))));

  const other = await rawClient(context);
  await authenticatePlain(other, "alice", "alice-secret");
  const hijack = await authenticatePlain(other, "bob", "bob:with:colons");
  assert.is(hijack.errorCode, ErrorCode.SASL_AUTHENTICATION_FAILED, "another user cannot take over an authenticated connection");
  assert.match(String(hijack.errorMessage), /re-authentication as 'bob' on a connection of 'alice'/);
});

test("an OAUTHBEARER session ends with its token when that comes first", async (context) => {
  await startSaslBroker(context, { maxReauthMs: 3_600_000 });
  const client = await rawClient(context);
  await client.request(SaslHandshake, 1, { mechanism: "OAUTHBEARER" });
  const answer = await client.request(SaslAuthenticate, 1, { authBytes: encodeOAuthBearer({ token: await token("svc", "30s"), extensions: new Map() }) });
  assert.ok(answer.sessionLifetimeMs > 25_000n && answer.sessionLifetimeMs <= 30_000n, String(answer.sessionLifetimeMs));
});

test("kafkajs authenticates with PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 and produces and consumes; a wrong password fails with the broker's message", async (context) => {
  const credentials = { username: "alice", password: "alice-secret" };
  for (const sasl of [{ mechanism: "plain", ...credentials }, { mechanism: "scram-sha-256", ...credentials }, { mechanism: "scram-sha-512", ...credentials }] satisfies SASLOptions[]) {
    const producer = context.broker.kafka({ sasl }).producer();
    await producer.connect();
    await producer.send({ topic: "sasl-words", messages: [{ value: sasl.mechanism }] });
  }
  const consumer = context.broker.kafka({ sasl: { mechanism: "scram-sha-512", username: "bob", password: "bob:with:colons" } }).consumer({ groupId: "sasl-readers" });
  await consumer.connect();
  await consumer.subscribe({ topics: ["sasl-words"], fromBeginning: true });
  const seen: string[] = [];
  await consumer.run({ eachMessage: async ({ message }) => void seen.push(String(message.value)) });
  await eventually(() => seen.length === 3, { what: "the three records" });
  assert.equal(seen, ["plain", "scram-sha-256", "scram-sha-512"]);

  const wrong = context.broker.kafka({ sasl: { mechanism: "scram-sha-512", username: "alice", password: "wrong" }, retry: { retries: 0 } }).admin();
  try {
    await wrong.connect();
    assert.unreachable("a wrong password connects");
  } catch (error) {
    assert.match((error as Error).message, /invalid credentials with SASL mechanism SCRAM-SHA-512/);
  }
});

test("kafkajs re-authenticates on its connections as sessions end", async (context) => {
  await startSaslBroker(context, { maxReauthMs: 600 });
  const producer = context.broker.kafka({ sasl: { mechanism: "scram-sha-256", username: "alice", password: "alice-secret" }, reauthenticationThreshold: 300 }).producer();
  await producer.connect();
  const started = Date.now();
  let sent = 0;
  while (!context.logs.some(({ msg }) => msg === "SASL session renewed") && Date.now() - started < 10_000) {
    await producer.send({ topic: "renewals", messages: [{ value: String(sent++) }] });
  }
  assert.ok(context.logs.some(({ msg }) => msg === "SASL session renewed"), "a session renewed on its connection");
});

test.run();
