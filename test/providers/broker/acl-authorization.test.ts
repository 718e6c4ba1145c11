/**
 * ACLs on the embedded broker, through kafkajs and bare requests: a principal without an ACL gets Kafka's
 * authorization errors and does not see others' topics; Kafka's rules (deny wins, ALL, implied DESCRIBE, prefixes,
 * wildcards, super users, allow.everyone.if.no.acl.found); transactional ids, idempotent producers and the cluster;
 * deleting a group's offsets; kafkajs's admin ACL calls, whose ACLs take effect at once and persist across a restart;
 * and no authorizer at all.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { AclOperationTypes, AclPermissionTypes, AclResourceTypes, ResourcePatternTypes, type SASLOptions } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { BrokerOptions } from "../../../providers/broker";
import { parseAclEntries } from "../../../providers/broker/acl/acl-entries";
import { ErrorCode } from "../../../providers/kafka-protocol/error-codes";
import { DescribeAcls } from "../../../providers/kafka-protocol/messages/describe-acls";
import { Fetch } from "../../../providers/kafka-protocol/messages/fetch";
import { FindCoordinator } from "../../../providers/kafka-protocol/messages/find-coordinator";
import { JoinGroup } from "../../../providers/kafka-protocol/messages/join-group";
import { ConsumerGroupDescribe } from "../../../providers/kafka-protocol/messages/consumer-group-describe";
import { ConsumerGroupHeartbeat } from "../../../providers/kafka-protocol/messages/consumer-group-heartbeat";
import { AddOffsetsToTxn } from "../../../providers/kafka-protocol/messages/add-offsets-to-txn";
import { EndTxn } from "../../../providers/kafka-protocol/messages/end-txn";
import { OffsetCommit } from "../../../providers/kafka-protocol/messages/offset-commit";
import { OffsetDelete } from "../../../providers/kafka-protocol/messages/offset-delete";
import { OffsetFetch } from "../../../providers/kafka-protocol/messages/offset-fetch";
import { InitProducerId } from "../../../providers/kafka-protocol/messages/init-producer-id";
import { Metadata } from "../../../providers/kafka-protocol/messages/metadata";
import { Produce } from "../../../providers/kafka-protocol/messages/produce";
import { SaslAuthenticate } from "../../../providers/kafka-protocol/messages/sasl-authenticate";
import { SaslHandshake } from "../../../providers/kafka-protocol/messages/sasl-handshake";
import { encodePlain } from "../../../providers/kafka-protocol/sasl/plain";
import { startTestBroker, type TestBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";

interface Context {
  broker?: TestBroker;
  raw: RawKafkaClient[];
  dirs: string[];
}

const test = suite<Context>("broker: ACLs");

const USERS = ["admin", "alice", "bob", "carol", "mallory"].map((name) => ({ name, password: `${name}-secret` }));
const sasl = (name: string): SASLOptions => ({ mechanism: "plain", username: name, password: `${name}-secret` });

test.before.each((context) => {
  context.raw = [];
  context.dirs = [];
});

test.after.each(async (context) => {
  for (const client of context.raw) client.close();
  await context.broker?.close();
  context.broker = undefined;
  for (const dir of context.dirs) fs.rmSync(dir, { recursive: true, force: true });
});

async function startSecured(context: Context, acls: string, options: Partial<BrokerOptions> & { allowEveryone?: boolean } = {}): Promise<TestBroker> {
  const { allowEveryone = false, ...rest } = options;
  context.broker = await startTestBroker({
    sasl: { mechanisms: ["PLAIN"], users: USERS, maxReauthMs: 0, failedAuthenticationDelayMs: 0 },
    authorizer: { superUsers: ["User:admin"], allowEveryoneIfNoAclFound: allowEveryone, acls: parseAclEntries(acls) },
    ...rest,
  });
  return context.broker;
}

async function connectedAdmin(broker: TestBroker, user: string) {
  const admin = broker.kafka({ sasl: sasl(user) }).admin();
  await admin.connect();
  return admin;
}

async function rawAs(context: Context, user: string, localAddress?: string): Promise<RawKafkaClient> {
  const client = await RawKafkaClient.connect(context.broker!.broker.port, "127.0.0.1", localAddress);
  context.raw.push(client);
  await client.request(SaslHandshake, 1, { mechanism: "PLAIN" });
  const answer = await client.request(SaslAuthenticate, 1, { authBytes: encodePlain({ username: user, password: `${user}-secret` }) });
  assert.is(answer.errorCode, ErrorCode.NONE);
  return client;
}

interface KafkaJsFailure {
  type?: string;
  cause?: KafkaJsFailure;
  errors?: KafkaJsFailure[];
  message?: string;
}

/** The protocol error kafkajs reports (retries wrap it as their cause), or "none". */
const failureOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "none",
    (error: KafkaJsFailure) => error.type ?? error.cause?.type ?? error.errors?.[0]?.type ?? error.message,
  );

const metadataOf = (names: string[] | null) => ({ topics: names && names.map((name) => ({ name })), allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false });

const ALICE_OWNS = "ALLOW User:alice ALL TOPIC:alice- PREFIXED; ALLOW User:alice READ GROUP:alice- PREFIXED";

test("an authenticated user without ACLs cannot delete, write, read or even list another user's topic", async (context) => {
  const broker = await startSecured(context, ALICE_OWNS);
  const alice = await connectedAdmin(broker, "alice");
  await alice.createTopics({ topics: [{ topic: "alice-orders" }] });
  const producer = broker.kafka({ sasl: sasl("alice") }).producer();
  await producer.connect();
  await producer.send({ topic: "alice-orders", messages: [{ value: "order 1" }] });

  const mallory = await connectedAdmin(broker, "mallory");
  assert.equal(await mallory.listTopics(), [], "Metadata hides the topics mallory may not describe");
  assert.is(await failureOf(mallory.deleteTopics({ topics: ["alice-orders"], timeout: 2_000 })), "TOPIC_AUTHORIZATION_FAILED");
  const intruder = broker.kafka({ sasl: sasl("mallory"), retry: { retries: 0 } }).producer();
  await intruder.connect();
  assert.is(await failureOf(intruder.send({ topic: "alice-orders", messages: [{ value: "forged" }] })), "TOPIC_AUTHORIZATION_FAILED");

  const raw = await rawAs(context, "mallory");
  const fetched = await raw.request(Fetch, 11, {
    replicaId: -1,
    maxWaitMs: 5_000,
    minBytes: 1,
    isolationLevel: 0,
    sessionId: 0,
    topics: [{ topic: "alice-orders", partitions: [{ partition: 0, fetchOffset: 0n, partitionMaxBytes: 1 << 20 }] }],
    forgottenTopicsData: [],
    rackId: "",
  });
  assert.is(fetched.responses[0].partitions[0].errorCode, ErrorCode.TOPIC_AUTHORIZATION_FAILED);
  assert.is(fetched.responses[0].partitions[0].records?.length ?? 0, 0);
  const described = await raw.request(Metadata, 4, metadataOf(["alice-orders"]));
  assert.equal(described.topics.map(({ name, errorCode }) => [name, errorCode]), [["alice-orders", ErrorCode.TOPIC_AUTHORIZATION_FAILED]]);

  const joined = await raw.request(JoinGroup, 5, {
    groupId: "alice-readers",
    sessionTimeoutMs: 10_000,
    rebalanceTimeoutMs: 10_000,
    memberId: "",
    groupInstanceId: null,
    protocolType: "consumer",
    protocols: [{ name: "range", metadata: Buffer.alloc(0) }],
  });
  assert.is(joined.errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
  const offsetsDeleted = await raw.request(OffsetDelete, 0, { groupId: "alice-readers", topics: [{ name: "alice-orders", partitions: [{ partitionIndex: 0 }] }] });
  assert.is(offsetsDeleted.errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);

  assert.equal(await alice.listTopics(), ["alice-orders"], "the topic is still there");
  const offsets = await alice.fetchTopicOffsets("alice-orders");
  assert.is(offsets[0].high, "1", "with alice's one record only");
});

test("the consumer group protocol: a heartbeat needs READ on the group and DESCRIBE on its topics; ConsumerGroupDescribe DESCRIBE on the group", async (context) => {
  const broker = await startSecured(context, `${ALICE_OWNS}; ALLOW User:mallory READ GROUP:mallory- PREFIXED`);
  const alice = await connectedAdmin(broker, "alice");
  await alice.createTopics({ topics: [{ topic: "alice-orders" }] });
  const join = (client: RawKafkaClient, groupId: string) =>
    client.request(ConsumerGroupHeartbeat, 1, { groupId, memberId: "m1", memberEpoch: 0, rebalanceTimeoutMs: 10_000, subscribedTopicNames: ["alice-orders"], topicPartitions: [] });
  const mallory = await rawAs(context, "mallory");
  assert.is((await join(mallory, "alice-readers")).errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
  assert.is((await join(mallory, "mallory-readers")).errorCode, ErrorCode.TOPIC_AUTHORIZATION_FAILED, "READ on its own group, but alice's topic stays hidden");
  const owner = await rawAs(context, "alice");
  const joined = await join(owner, "alice-readers");
  assert.equal([joined.errorCode, joined.memberEpoch], [ErrorCode.NONE, 1]);
  const describe = (client: RawKafkaClient) => client.request(ConsumerGroupDescribe, 0, { groupIds: ["alice-readers"], includeAuthorizedOperations: false });
  assert.equal((await describe(owner)).groups.map(({ errorCode, groupState }) => [errorCode, groupState]), [[ErrorCode.NONE, "Stable"]]);
  assert.equal((await describe(mallory)).groups.map(({ errorCode }) => errorCode), [ErrorCode.GROUP_AUTHORIZATION_FAILED]);
});

test("the owner reads its topic through its group; deny wins over allow, ALL covers every operation, READ implies DESCRIBE", async (context) => {
  const broker = await startSecured(context, [ALICE_OWNS, "DENY User:alice WRITE TOPIC:alice-archive", "ALLOW User:bob READ TOPIC:*", "DENY User:bob READ TOPIC:alice-secret"].join(";"));
  const admin = await connectedAdmin(broker, "admin");
  await admin.createTopics({ topics: [{ topic: "alice-orders" }, { topic: "alice-archive" }, { topic: "alice-secret" }] });

  const producer = broker.kafka({ sasl: sasl("alice"), retry: { retries: 0 } }).producer();
  await producer.connect();
  await producer.send({ topic: "alice-orders", messages: [{ value: "order 1" }] });
  assert.is(await failureOf(producer.send({ topic: "alice-archive", messages: [{ value: "x" }] })), "TOPIC_AUTHORIZATION_FAILED", "DENY WRITE beats ALLOW ALL");

  const consumer = broker.kafka({ sasl: sasl("alice") }).consumer({ groupId: "alice-readers" });
  await consumer.connect();
  await consumer.subscribe({ topics: ["alice-orders"], fromBeginning: true });
  const read = new Promise<string>((resolve) => void consumer.run({ eachMessage: async ({ message }) => resolve(String(message.value)) }));
  assert.is(await read, "order 1");
  await consumer.disconnect();

  const bob = await rawAs(context, "bob");
  const listed = await bob.request(Metadata, 4, metadataOf(null));
  assert.equal(listed.topics.map(({ name }) => name).sort(), ["alice-archive", "alice-orders", "alice-secret"], "READ on * implies DESCRIBE of every topic; a DENY of READ is no DENY of DESCRIBE");
  const fetched = await bob.request(Fetch, 11, {
    replicaId: -1,
    maxWaitMs: 0,
    minBytes: 0,
    isolationLevel: 0,
    sessionId: 0,
    topics: ["alice-orders", "alice-secret"].map((topic) => ({ topic, partitions: [{ partition: 0, fetchOffset: 0n, partitionMaxBytes: 1 << 20 }] })),
    forgottenTopicsData: [],
    rackId: "",
  });
  const codes = Object.fromEntries(fetched.responses.map(({ topic, partitions }) => [topic, partitions[0].errorCode]));
  assert.equal(codes, { "alice-orders": ErrorCode.NONE, "alice-secret": ErrorCode.TOPIC_AUTHORIZATION_FAILED });
  const produced = await bob.request(Produce, 8, { transactionalId: null, acks: -1, timeoutMs: 1_000, topicData: [{ name: "alice-orders", partitionData: [{ index: 0, records: null }] }] });
  assert.is(produced.responses[0].partitionResponses[0].errorCode, ErrorCode.TOPIC_AUTHORIZATION_FAILED, "READ grants no WRITE");
});

test("an ACL FROM one address applies to connections from that address only", async (context) => {
  const broker = await startSecured(context, "ALLOW User:bob DESCRIBE TOPIC:audit FROM 127.0.0.2");
  await (await connectedAdmin(broker, "admin")).createTopics({ topics: [{ topic: "audit" }] });
  const codeFrom = async (address: string) => (await (await rawAs(context, "bob", address)).request(Metadata, 4, metadataOf(["audit"]))).topics[0].errorCode;
  assert.is(await codeFrom("127.0.0.2"), ErrorCode.NONE);
  assert.is(await codeFrom("127.0.0.1"), ErrorCode.TOPIC_AUTHORIZATION_FAILED);
});

test("super users may do anything; allow.everyone.if.no.acl.found opens only the resources no ACL names", async (context) => {
  const broker = await startSecured(context, "ALLOW User:alice ALL TOPIC:alice- PREFIXED", { allowEveryone: true });
  const admin = await connectedAdmin(broker, "admin");
  await admin.createTopics({ topics: [{ topic: "alice-orders" }, { topic: "shared" }] });
  const mallory = await connectedAdmin(broker, "mallory");
  assert.equal(await mallory.listTopics(), ["shared"], "alice's topic is named by an ACL; shared is named by none");
  await mallory.deleteTopics({ topics: ["shared"], timeout: 2_000 });
  assert.is(await failureOf(mallory.deleteTopics({ topics: ["alice-orders"], timeout: 2_000 })), "TOPIC_AUTHORIZATION_FAILED");
  await admin.deleteTopics({ topics: ["alice-orders"], timeout: 2_000 });
  assert.equal(await admin.listTopics(), []);
});

test("transactional ids, idempotent producers and the cluster's ACLs are checked: Kafka's errors for each", async (context) => {
  await startSecured(context, "ALLOW User:alice WRITE TRANSACTIONAL_ID:alice-tx; ALLOW User:bob WRITE TOPIC:bob- PREFIXED; ALLOW User:carol IDEMPOTENT_WRITE CLUSTER; ALLOW User:carol DESCRIBE GROUP:carol-");
  const initFor = async (user: string, transactionalId: string | null) =>
    (await (await rawAs(context, user)).request(InitProducerId, 2, { transactionalId, transactionTimeoutMs: 60_000 })).errorCode;
  assert.is(await initFor("alice", "alice-tx"), ErrorCode.NONE);
  assert.is(await initFor("alice", "bob-tx"), ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
  assert.is(await initFor("alice", null), ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "an idempotent producer needs IDEMPOTENT_WRITE or WRITE on some topic");
  assert.is(await initFor("bob", null), ErrorCode.NONE, "WRITE on some topic is enough (KIP-679)");
  assert.is(await initFor("carol", null), ErrorCode.NONE, "IDEMPOTENT_WRITE on the cluster is enough");

  const alice = await rawAs(context, "alice");
  const transactional = await alice.request(Produce, 8, { transactionalId: "bob-tx", acks: -1, timeoutMs: 1_000, topicData: [{ name: "any", partitionData: [{ index: 0, records: null }] }] });
  assert.is(transactional.responses[0].partitionResponses[0].errorCode, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
  const coordinator = await alice.request(FindCoordinator, 1, { key: "bob-tx", keyType: 1 });
  assert.is(coordinator.errorCode, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
  assert.is((await alice.request(FindCoordinator, 1, { key: "alice-tx", keyType: 1 })).errorCode, ErrorCode.NONE, "WRITE implies DESCRIBE");
  const carol = await rawAs(context, "carol");
  assert.is((await carol.request(FindCoordinator, 1, { key: "carol-", keyType: 0 })).errorCode, ErrorCode.NONE);
  assert.is((await carol.request(FindCoordinator, 1, { key: "someone-else", keyType: 0 })).errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
  const acls = await carol.request(DescribeAcls, 1, { resourceTypeFilter: 1, resourceNameFilter: null, patternTypeFilter: 1, principalFilter: null, hostFilter: null, operation: 1, permissionType: 1 });
  assert.equal([acls.errorCode, acls.resources], [ErrorCode.CLUSTER_AUTHORIZATION_FAILED, []], "only DESCRIBE on the cluster lists ACLs");
});

test("a transactional producer needs WRITE on its transactional id and on each topic it adds; its offsets READ on the group", async (context) => {
  const broker = await startSecured(
    context,
    ["ALLOW User:alice WRITE TRANSACTIONAL_ID:alice-tx", "ALLOW User:alice WRITE TOPIC:alice-orders", "ALLOW User:alice READ TOPIC:alice-input", "ALLOW User:mallory WRITE TOPIC:mallory-"].join(";"),
  );
  await (await connectedAdmin(broker, "admin")).createTopics({ topics: [{ topic: "alice-orders" }, { topic: "bob-orders" }, { topic: "alice-input" }] });
  const transactional = (user: string) => broker.kafka({ sasl: sasl(user), retry: { retries: 1, initialRetryTime: 50 } }).producer({ transactionalId: "alice-tx", idempotent: true, maxInFlightRequests: 1 });

  const alice = transactional("alice");
  await alice.connect();
  const committed = await alice.transaction();
  await committed.send({ topic: "alice-orders", messages: [{ value: "in a transaction" }] });
  await committed.commit();

  const stray = await alice.transaction();
  assert.is(await failureOf(stray.send({ topic: "bob-orders", messages: [{ value: "not hers" }] })), "TOPIC_AUTHORIZATION_FAILED", "AddPartitionsToTxn refuses bob's topic");
  await stray.abort().catch(() => undefined);

  const raw = await rawAs(context, "alice");
  const offsets = await raw.request(AddOffsetsToTxn, 3, { transactionalId: "alice-tx", producerId: 0n, producerEpoch: 0, groupId: "bob-group" });
  assert.is(offsets.errorCode, ErrorCode.GROUP_AUTHORIZATION_FAILED);
  const ended = await (await rawAs(context, "mallory")).request(EndTxn, 3, { transactionalId: "alice-tx", producerId: 0n, producerEpoch: 0, committed: true });
  assert.is(ended.errorCode, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);

  const mallory = transactional("mallory");
  await mallory.connect();
  // kafkajs reports the coordinator's TRANSACTIONAL_ID_AUTHORIZATION_FAILED as a coordinator it could not find.
  assert.is.not(await failureOf(mallory.transaction()), "none", "mallory cannot take over alice's transactional id");
  const malloryRaw = await rawAs(context, "mallory");
  assert.is((await malloryRaw.request(FindCoordinator, 1, { key: "alice-tx", keyType: 1 })).errorCode, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
  assert.is((await malloryRaw.request(InitProducerId, 2, { transactionalId: "alice-tx", transactionTimeoutMs: 60_000 })).errorCode, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
});

test("deleting a group's offsets needs DELETE on the group, and READ on each topic whose offsets go", async (context) => {
  const broker = await startSecured(context, "ALLOW User:bob DELETE GROUP:bob-readers; ALLOW User:bob READ TOPIC:bob-orders");
  await (await connectedAdmin(broker, "admin")).createTopics({ topics: [{ topic: "bob-orders" }, { topic: "carol-orders" }] });
  const admin = await rawAs(context, "admin");
  const committed = await admin.request(OffsetCommit, 2, {
    groupId: "bob-readers",
    memberId: "",
    groupInstanceId: null,
    topics: ["bob-orders", "carol-orders"].map((name) => ({ name, partitions: [{ partitionIndex: 0, committedOffset: 3n, committedMetadata: null }] })),
  });
  assert.ok(committed.topics.every(({ partitions }) => partitions[0].errorCode === ErrorCode.NONE));

  const deleted = await (await rawAs(context, "bob")).request(OffsetDelete, 0, {
    groupId: "bob-readers",
    topics: ["bob-orders", "carol-orders"].map((name) => ({ name, partitions: [{ partitionIndex: 0 }] })),
  });
  assert.is(deleted.errorCode, ErrorCode.NONE);
  assert.equal(Object.fromEntries(deleted.topics.map(({ name, partitions }) => [name, partitions[0].errorCode])), { "bob-orders": ErrorCode.NONE, "carol-orders": ErrorCode.TOPIC_AUTHORIZATION_FAILED });
  const kept = await admin.request(OffsetFetch, 2, { groupId: "bob-readers", topics: null });
  assert.equal(kept.topics.map(({ name }) => name), ["carol-orders"], "only the offsets bob may read are gone");
});

test("kafkajs's admin creates, lists and deletes ACLs; they take effect at once and persist across a restart", async (context) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-acls-"));
  context.dirs.push(dataDir);
  const configured = "ALLOW User:carol DESCRIBE CLUSTER";
  const options = { storage: "file" as const, dataDir };
  let broker = await startSecured(context, configured, options);
  let admin = await connectedAdmin(broker, "admin");
  await admin.createTopics({ topics: [{ topic: "carol-events" }] });
  const carolSends = async () => {
    const producer = broker.kafka({ sasl: sasl("carol"), retry: { retries: 0 } }).producer();
    await producer.connect();
    return failureOf(producer.send({ topic: "carol-events", messages: [{ value: "event" }] }).finally(() => producer.disconnect()));
  };
  assert.is(await carolSends(), "TOPIC_AUTHORIZATION_FAILED");

  const carolWrites = { resourceType: AclResourceTypes.TOPIC, resourceName: "carol-", resourcePatternType: ResourcePatternTypes.PREFIXED, principal: "User:carol", host: "*", operation: AclOperationTypes.WRITE, permissionType: AclPermissionTypes.ALLOW };
  await admin.createAcls({ acl: [carolWrites] });
  assert.is(await carolSends(), "none", "the new ACL applies at once");
  assert.is((fs.statSync(path.join(dataDir, "acls.json")).mode & 0o777).toString(8), "600");

  await broker.close();
  broker = await startSecured(context, configured, options);
  admin = await connectedAdmin(broker, "admin");
  const listed = await admin.describeAcls({ resourceType: AclResourceTypes.ANY, resourcePatternType: ResourcePatternTypes.ANY, operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY });
  const flat = listed.resources.flatMap(({ resourceType, resourceName, resourcePatternType, acls }) => acls.map((acl) => ({ resourceType, resourceName, resourcePatternType, ...acl })));
  assert.equal(
    flat.map(({ resourceName, principal, operation }) => `${principal} ${operation} ${resourceName}`).sort(),
    [`User:carol ${AclOperationTypes.WRITE} carol-`, `User:carol ${AclOperationTypes.DESCRIBE} kafka-cluster`],
    "the configured ACL and the created one, after the restart",
  );
  assert.is(await carolSends(), "none", "the created ACL still applies after the restart");

  const everyOf = (resourceType: AclResourceTypes) => ({ resourceType, resourcePatternType: ResourcePatternTypes.ANY, principal: "User:carol", operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY });
  const deleted = await admin.deleteAcls({ filters: [everyOf(AclResourceTypes.TOPIC)] });
  assert.equal(deleted.filterResponses[0].matchingAcls.map(({ resourceName, errorCode }) => [resourceName, errorCode]), [["carol-", ErrorCode.NONE]]);
  assert.is(await carolSends(), "TOPIC_AUTHORIZATION_FAILED", "the deleted ACL no longer applies");
  assert.is(await failureOf(admin.deleteAcls({ filters: [everyOf(AclResourceTypes.CLUSTER)] })), "INVALID_REQUEST", "an ACL of broker.acls is not deleted at run time");
  assert.is((await admin.describeAcls(everyOf(AclResourceTypes.ANY))).resources.length, 1, "it stays");

  const mallory = await connectedAdmin(broker, "mallory");
  assert.is(await failureOf(mallory.createAcls({ acl: [{ ...carolWrites, principal: "User:mallory" }] })), "CLUSTER_AUTHORIZATION_FAILED");
});

test("without an authorizer every client may do everything, and the ACL calls answer SECURITY_DISABLED", async (context) => {
  context.broker = await startTestBroker({ sasl: { mechanisms: ["PLAIN"], users: USERS, maxReauthMs: 0 } });
  const alice = await connectedAdmin(context.broker, "alice");
  await alice.createTopics({ topics: [{ topic: "alice-orders" }] });
  const mallory = await connectedAdmin(context.broker, "mallory");
  await mallory.deleteTopics({ topics: ["alice-orders"], timeout: 2_000 });
  assert.equal(await alice.listTopics(), []);
  assert.is(await failureOf(mallory.describeAcls({ resourceType: AclResourceTypes.ANY, resourcePatternType: ResourcePatternTypes.ANY, operation: AclOperationTypes.ANY, permissionType: AclPermissionTypes.ANY })), "SECURITY_DISABLED");
});

test.run();
