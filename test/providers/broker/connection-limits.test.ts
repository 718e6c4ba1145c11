/**
 * What an unauthenticated or unruly client can cost the broker: the frame limit before SASL authentication, the limits
 * on connections (in all and per address), idle connections closed, failed authentications answered late without
 * holding up other connections, and the bounds on partitions per CreateTopics request and per broker.
 */
import { connect, type Socket } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { BrokerOptions } from "../../../providers/broker";
import { ErrorCode } from "../../../providers/kafka-protocol/error-codes";
import { CreateTopics } from "../../../providers/kafka-protocol/messages/create-topics";
import { Fetch } from "../../../providers/kafka-protocol/messages/fetch";
import { Metadata } from "../../../providers/kafka-protocol/messages/metadata";
import { SaslAuthenticate } from "../../../providers/kafka-protocol/messages/sasl-authenticate";
import { SaslHandshake } from "../../../providers/kafka-protocol/messages/sasl-handshake";
import { encodePlain } from "../../../providers/kafka-protocol/sasl/plain";
import { eventually } from "../../helpers/eventually";
import { startTestBroker, type TestBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";

interface Context {
  broker?: TestBroker;
  sockets: Socket[];
  raw: RawKafkaClient[];
}

const test = suite<Context>("broker: limits on what clients cost");

const SASL = { mechanisms: ["PLAIN" as const], users: [{ name: "alice", password: "alice-secret" }], maxReauthMs: 0 };
const METADATA_ALL = { topics: null, allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false };

test.before.each((context) => {
  context.sockets = [];
  context.raw = [];
});

test.after.each(async (context) => {
  for (const socket of context.sockets) socket.destroy();
  for (const client of context.raw) client.close();
  await context.broker?.close();
  context.broker = undefined;
});

async function start(context: Context, options: BrokerOptions): Promise<TestBroker> {
  context.broker = await startTestBroker(options);
  return context.broker;
}

async function rawClient(context: Context): Promise<RawKafkaClient> {
  const client = await RawKafkaClient.connect(context.broker!.broker.port);
  context.raw.push(client);
  return client;
}

/** A TCP connection to the broker from `localAddress` (any 127.x.y.z is this machine), and whether it was closed. */
function socketTo(context: Context, localAddress = "127.0.0.1"): Promise<{ socket: Socket; closed: () => boolean; whenClosed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    let closed = false;
    const socket = connect({ port: context.broker!.broker.port, host: "127.0.0.1", localAddress });
    context.sockets.push(socket);
    const whenClosed = new Promise<void>((done) => socket.once("close", () => done()));
    socket.once("close", () => (closed = true));
    socket.on("error", () => undefined);
    socket.once("connect", () => resolve({ socket, closed: () => closed, whenClosed }));
    socket.once("error", reject);
  });
}

const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);

async function authenticate(client: RawKafkaClient, password: string) {
  await client.request(SaslHandshake, 1, { mechanism: "PLAIN" });
  return client.request(SaslAuthenticate, 1, { authBytes: encodePlain({ username: "alice", password }) });
}

test("before SASL authentication, a frame announced larger than the limit closes the connection at once, unread", async (context) => {
  await start(context, { sasl: SASL, saslMaxReceiveBytes: 512 * 1024 });
  const { socket, whenClosed } = await socketTo(context);
  const size = Buffer.alloc(4);
  size.writeInt32BE(100 * 1024 * 1024);
  // Only the size: a broker that waited for the 100 MiB would keep the connection open.
  socket.write(size);
  assert.ok(await within(whenClosed, 5_000), "the connection is closed without the frame's body");

  // After authenticating, frames up to max.request.bytes are read: here a 1 MiB request, answered.
  const client = await rawClient(context);
  assert.is((await authenticate(client, "alice-secret")).errorCode, ErrorCode.NONE);
  const large = await client.request(CreateTopics, 4, {
    topics: [{ name: "large-request", numPartitions: 1, replicationFactor: 1, assignments: [], configs: Array.from({ length: 40 }, () => ({ name: "cleanup.policy", value: "x".repeat(30_000) })) }],
    timeoutMs: 1000,
    validateOnly: true,
  });
  assert.is(large.topics[0].name, "large-request");
});

test("connections past broker.max.connections are closed as they arrive; a freed slot admits the next", async (context) => {
  await start(context, { maxConnections: 3 });
  const kept = await Promise.all([socketTo(context), socketTo(context), socketTo(context)]);
  const refused = await socketTo(context);
  assert.ok(await within(refused.whenClosed, 5_000), "the fourth connection is closed");
  assert.ok(kept.every(({ closed }) => !closed()), "the first three stay open");
  kept[0].socket.destroy();
  await eventually(async () => {
    const next = await socketTo(context);
    return !(await within(next.whenClosed, 300)) || (next.socket.destroy(), false);
  }, { what: "a connection to be admitted once one closed" });
});

test("connections past broker.max.connections.per.ip from one address are closed; other addresses still connect and are served", async (context) => {
  await start(context, { maxConnectionsPerIp: 2 });
  const flood = await Promise.all([socketTo(context, "127.0.0.2"), socketTo(context, "127.0.0.2")]);
  const third = await socketTo(context, "127.0.0.2");
  assert.ok(await within(third.whenClosed, 5_000), "a third connection from 127.0.0.2 is closed");
  assert.ok(flood.every(({ closed }) => !closed()));
  const client = await rawClient(context);
  assert.is((await client.request(Metadata, 4, METADATA_ALL)).brokers.length, 1, "127.0.0.1 is served");
});

test("a connection idle for broker.connections.max.idle.ms is closed; one waiting for an answer is not", async (context) => {
  const broker = await start(context, { connectionsMaxIdleMs: 300 });
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "quiet" }] });
  const idle = await rawClient(context);
  assert.is((await idle.request(Metadata, 4, METADATA_ALL)).brokers.length, 1);
  assert.ok(await within(idle.closed, 5_000), "the idle connection is closed");

  // A fetch long-polling three times the idle limit on an empty topic: its connection lives to carry the answer.
  const polling = await rawClient(context);
  const closedFirst = polling.closed.then(() => Promise.reject(new Error("the polling connection was closed before its answer")));
  const fetched = await Promise.race([closedFirst, polling.request(Fetch, 11, {
    replicaId: -1,
    maxWaitMs: 900,
    minBytes: 1,
    isolationLevel: 0,
    sessionId: 0,
    topics: [{ topic: "quiet", partitions: [{ partition: 0, fetchOffset: 0n, partitionMaxBytes: 1024 }] }],
    forgottenTopicsData: [],
    rackId: "",
  })]);
  closedFirst.catch(() => undefined);
  assert.is(fetched.responses[0].partitions[0].errorCode, ErrorCode.NONE);
  assert.ok(await within(polling.closed, 5_000), "then, idle, it is closed too");
});

test("a failed SASL authentication is answered after the delay, while other connections authenticate and are served", async (context) => {
  await start(context, { sasl: { ...SASL, failedAuthenticationDelayMs: 1_500 } });
  const guesser = await rawClient(context);
  await guesser.request(SaslHandshake, 1, { mechanism: "PLAIN" });
  const startedAt = Date.now();
  let refusedAt = 0;
  guesser.send(SaslAuthenticate, 1, { authBytes: encodePlain({ username: "alice", password: "guess" }) });
  const refusal = guesser.next().then((response) => {
    refusedAt = Date.now();
    return RawKafkaClient.decode(SaslAuthenticate, 1, response);
  });

  const honest = await rawClient(context);
  assert.is((await authenticate(honest, "alice-secret")).errorCode, ErrorCode.NONE);
  assert.is((await honest.request(Metadata, 4, METADATA_ALL)).brokers.length, 1);
  assert.is(refusedAt, 0, "the honest client was served before the guess was answered");

  assert.is((await refusal).errorCode, ErrorCode.SASL_AUTHENTICATION_FAILED);
  assert.ok(refusedAt - startedAt >= 1_400, `the refusal came after ${refusedAt - startedAt} ms`);
  assert.ok(await within(guesser.closed, 5_000), "then the connection is closed");
});

test("a CreateTopics request adding more than 10,000 partitions is refused whole with POLICY_VIOLATION", async (context) => {
  const broker = await start(context, { maxPartitions: null });
  const admin = broker.kafka().admin();
  await admin.connect();
  const topics = [{ topic: "many-a", numPartitions: 6_000 }, { topic: "many-b", numPartitions: 4_001 }];
  const error = await admin.createTopics({ topics }).then(
    () => undefined,
    (failure: { errors?: { type: string; topic?: string }[] }) => failure,
  );
  assert.ok(error?.errors, "the creation fails");
  assert.equal(error.errors!.map(({ type }) => type), ["POLICY_VIOLATION", "POLICY_VIOLATION"]);
  assert.equal(await admin.listTopics(), []);
});

test("past broker.max.partitions, creating, growing and auto-creating topics fail with POLICY_VIOLATION", async (context) => {
  const broker = await start(context, { maxPartitions: 10 });
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "eight", numPartitions: 8 }] });
  const refusedCreation = await admin.createTopics({ topics: [{ topic: "three", numPartitions: 3 }] }).catch((failure: { errors?: { type: string }[] }) => failure.errors?.[0]?.type);
  assert.is(refusedCreation, "POLICY_VIOLATION");
  const refusedGrowth = await admin.createPartitions({ topicPartitions: [{ topic: "eight", count: 11 }] }).catch((failure: { type?: string }) => failure.type);
  assert.is(refusedGrowth, "POLICY_VIOLATION");
  await admin.createTopics({ topics: [{ topic: "two", numPartitions: 2 }] });

  const client = await rawClient(context);
  const metadata = await client.request(Metadata, 4, { topics: [{ name: "auto-created" }], allowAutoTopicCreation: true, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false });
  assert.is(metadata.topics[0].errorCode, ErrorCode.POLICY_VIOLATION);
  assert.equal((await admin.listTopics()).sort(), ["eight", "two"]);
});

test.run();
