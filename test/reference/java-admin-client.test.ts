/**
 * Apache Kafka's AdminClient on the embedded broker: every call the broker offers gives Kafka's answer, every call it
 * does not offer fails at once with Kafka's UnsupportedVersionException, and the Java clients of this suite use every
 * API the broker advertises, each within the versions it advertises.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as protocol from "../../providers/kafka-protocol";
import { ApiVersions } from "../../providers/kafka-protocol/messages/api-versions";
import type { ApiSpec } from "../../providers/kafka-protocol/schema";
import { startTestBroker, type TestBroker } from "../providers/broker/broker-test-kit";
import { RawKafkaClient } from "../providers/broker/raw-kafka-client";
import { eventually } from "../helpers/eventually";
import { JavaProcesses, REFERENCE_PACKAGE, SIGTERM_EXIT, stopJava, type JavaProcess } from "../helpers/reference-java";

const ADMIN = `${REFERENCE_PACKAGE}.clients.AdminCalls`;
const PRODUCER = `${REFERENCE_PACKAGE}.clients.DefaultProducer`;
const CONSUMER = `${REFERENCE_PACKAGE}.clients.GroupConsumer`;
const TRANSACTIONAL_PRODUCER = `${REFERENCE_PACKAGE}.transactions.TransactionalProducerProgram`;

/** The Java clients log every request their NetworkClient sends (see reference/src/main/resources/log4j2.properties). */
const LOG_REQUESTS = ["-Dsluice.requests=DEBUG"];

let broker: TestBroker;
const java = new JavaProcesses();
/** The versions of each API (Kafka's name for it, JOIN_GROUP) the Java clients of this suite sent. */
const used = new Map<string, Set<number>>();
/** Set once a Java client has authenticated: SASL's requests go below the NetworkClient, which does not log them. */
let authenticated = false;

function recordRequests(stderr: string): void {
  for (const [, api, version] of stderr.matchAll(/Sending \w+ request with header RequestHeader\(apiKey=(\w+), apiVersion=(\d+)/g)) {
    if (!used.has(api)) used.set(api, new Set());
    used.get(api)!.add(Number(version));
  }
}

async function runJava(mainClass: string, args: string[], input = ""): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = await java.run(mainClass, args, { input, jvmFlags: LOG_REQUESTS });
  recordRequests(run.stderr);
  return run;
}

async function stopRecorded(program: JavaProcess): Promise<void> {
  assert.is((await stopJava(program)).code, SIGTERM_EXIT, program.stderr());
  recordRequests(program.stderr());
}

interface Answer {
  call: string;
  result?: unknown;
  error?: { error: string; message: string };
}

/** One AdminClient, driven call by call. */
class Admin {
  private constructor(private readonly program: JavaProcess) {}

  static start(bootstrap: string, configs: string[] = []): Admin {
    return new Admin(java.start(ADMIN, [bootstrap, ...configs], { jvmFlags: LOG_REQUESTS }));
  }

  async call(call: string, args: Record<string, unknown> = {}): Promise<Answer> {
    const from = this.program.lines().length;
    this.program.send(JSON.stringify({ call, ...args }));
    return (await this.program.waitForLine((line) => line.call === call, call, { from, timeoutMs: 120_000 })) as unknown as Answer;
  }

  /** The call's result; fails the test with Kafka's error if it failed. */
  async result(call: string, args: Record<string, unknown> = {}): Promise<unknown> {
    const answer = await this.call(call, args);
    assert.equal(answer.error, undefined, `${call} ${JSON.stringify(args)}`);
    return answer.result;
  }

  /** The exception class the call failed with, and its message. */
  async failure(call: string, args: Record<string, unknown> = {}): Promise<{ error: string; message: string }> {
    const answer = await this.call(call, args);
    assert.ok(answer.error, `${call} ${JSON.stringify(args)} should fail, gave ${JSON.stringify(answer.result)}`);
    return answer.error!;
  }

  async close(): Promise<void> {
    this.program.endInput();
    const exit = await this.program.exited;
    assert.is(exit.code, 0, this.program.stderr());
    recordRequests(this.program.stderr());
  }
}

const test = suite("reference: Java AdminClient on the embedded broker");

test.before(async () => {
  broker = await startTestBroker();
});

test.after.each(() => java.stopAll());

test.after(() => broker.close());

const T0 = Date.UTC(2026, 0, 1);

test("topics: created with their configs, listed, described, grown, trimmed, looked up by time and deleted, with Kafka's errors", async () => {
  const admin = Admin.start(broker.bootstrap);
  assert.is(await admin.result("createTopics", { topics: [{ name: "payments", partitions: 3, configs: { "cleanup.policy": "compact", "retention.ms": "3600000" } }, { name: "audit", partitions: 1 }] }), "ok");
  assert.equal(await admin.failure("createTopics", { topics: [{ name: "payments", partitions: 3 }] }), { error: "TopicExistsException", message: 'topic "payments" already exists' });
  assert.is((await admin.failure("createTopics", { topics: [{ name: "none", partitions: 0 }] })).error, "InvalidPartitionsException");
  assert.is((await admin.failure("createTopics", { topics: [{ name: "replicated", partitions: 1, replicationFactor: 3 }] })).error, "InvalidReplicationFactorException");
  assert.is((await admin.failure("createTopics", { topics: [{ name: "bad/name", partitions: 1 }] })).error, "InvalidTopicException");
  assert.is((await admin.failure("createTopics", { topics: [{ name: "typo", partitions: 1, configs: { "retention.mss": "1000" } }] })).error, "InvalidConfigurationException");
  assert.is((await admin.failure("createTopics", { topics: [{ name: "bogus", partitions: 1, configs: { "cleanup.policy": "shred" } }] })).error, "InvalidConfigurationException");

  const names = async () => ((await admin.result("listTopics")) as { name: string }[]).map(({ name }) => name);
  assert.equal(await names(), ["audit", "payments"]);
  const partitions = (count: number) => Array.from({ length: count }, (_, partition) => ({ partition, leader: 0, replicas: [0], isr: [0] }));
  assert.equal(await admin.result("describeTopics", { topics: ["audit", "payments"] }), [
    { name: "audit", internal: false, partitions: partitions(1) },
    { name: "payments", internal: false, partitions: partitions(3) },
  ]);
  assert.is((await admin.failure("describeTopics", { topics: ["missing"] })).error, "UnknownTopicOrPartitionException");

  assert.equal(await admin.result("describeConfigs", { type: "topic", name: "payments", keys: ["cleanup.policy", "retention.ms", "retention.bytes"], synonyms: true }), {
    "cleanup.policy": { value: "compact", source: "DYNAMIC_TOPIC_CONFIG", readOnly: true, synonyms: ["DYNAMIC_TOPIC_CONFIG=compact", "DEFAULT_CONFIG=delete"] },
    "retention.bytes": { value: "-1", source: "DEFAULT_CONFIG", readOnly: true, synonyms: ["DEFAULT_CONFIG=-1"] },
    "retention.ms": { value: "3600000", source: "DYNAMIC_TOPIC_CONFIG", readOnly: true, synonyms: ["DYNAMIC_TOPIC_CONFIG=3600000", "DEFAULT_CONFIG=604800000"] },
  });
  assert.equal(await admin.result("describeConfigs", { type: "broker", name: "0", keys: ["num.partitions", "auto.create.topics.enable"] }), {
    "auto.create.topics.enable": { value: "true", source: "DEFAULT_CONFIG", readOnly: true, synonyms: [] },
    "num.partitions": { value: "1", source: "DEFAULT_CONFIG", readOnly: true, synonyms: [] },
  });
  const cluster = (await admin.result("describeCluster")) as { clusterId: string; controller: number; nodes: unknown[] };
  assert.equal({ ...cluster, clusterId: typeof cluster.clusterId }, { clusterId: "string", controller: 0, nodes: [{ id: 0, host: "127.0.0.1", port: broker.broker.port }] });

  assert.is(await admin.result("createPartitions", { topic: "payments", total: 5 }), "ok");
  assert.equal(((await admin.result("describeTopics", { topics: ["payments"] })) as { partitions: unknown[] }[])[0].partitions, partitions(5));
  assert.is((await admin.failure("createPartitions", { topic: "payments", total: 2 })).error, "InvalidPartitionsException");
  assert.is((await admin.failure("createPartitions", { topic: "missing", total: 2 })).error, "UnknownTopicOrPartitionException");

  // Ten records a second apart; then offsets by position and by time.
  const records = Array.from({ length: 10 }, (_, i) => JSON.stringify({ value: `entry-${i}`, timestamp: T0 + i * 1000, partition: 0 }));
  assert.is((await runJava(PRODUCER, [broker.bootstrap, "audit"], records.join("\n"))).code, 0);
  const offset = (spec: string) => admin.result("listOffsets", { topic: "audit", partition: 0, spec });
  assert.equal(await offset("earliest"), { offset: 0, timestamp: -1 });
  assert.equal(await offset("latest"), { offset: 10, timestamp: -1 });
  assert.equal(await offset(String(T0 + 3500)), { offset: 4, timestamp: T0 + 4000 });
  assert.equal(await offset(String(T0 + 60_000)), { offset: -1, timestamp: -1 });
  assert.equal(await offset("maxTimestamp"), { offset: 9, timestamp: T0 + 9000 });

  assert.is(await admin.result("deleteRecords", { topic: "audit", partition: 0, before: 4 }), 4);
  assert.equal(await offset("earliest"), { offset: 4, timestamp: -1 });
  assert.is((await admin.failure("deleteRecords", { topic: "audit", partition: 0, before: 11 })).error, "OffsetOutOfRangeException");

  assert.is(await admin.result("deleteTopics", { topics: ["audit"] }), "ok");
  assert.equal(await names(), ["payments"]);
  assert.is((await admin.failure("deleteTopics", { topics: ["audit"] })).error, "UnknownTopicOrPartitionException");
  await admin.close();
});

test("consumer groups: a live group listed and described, its offsets listed, then altered, deleted in part and deleted once it is empty", async () => {
  const admin = Admin.start(broker.bootstrap);
  await admin.result("createTopics", { topics: [{ name: "orders", partitions: 2 }] });
  const orders = Array.from({ length: 8 }, (_, i) => JSON.stringify({ value: `order-${i}`, partition: i % 2 }));
  assert.is((await runJava(PRODUCER, [broker.bootstrap, "orders"], orders.join("\n"))).code, 0);
  // Heartbeats every 100 ms, so that the group's Heartbeat API is used while it is described.
  const member = java.start(CONSUMER, [broker.bootstrap, "billing", "orders", "client.id=billing-1", "heartbeat.interval.ms=100"], { jvmFlags: LOG_REQUESTS });
  await eventually(() => member.lines().filter((line) => line.event === "committed").reduce((sum, line) => sum + (line.records as number), 0) === 8, {
    timeoutMs: 60_000,
    what: "the member to read and commit the orders",
  });

  assert.equal(await admin.result("listConsumerGroups"), [{ groupId: "billing", type: "Classic", state: "Stable", simple: false }]);
  assert.equal(await admin.result("describeConsumerGroups", { groups: ["billing"] }), [
    { groupId: "billing", state: "Stable", type: "Classic", partitionAssignor: "range", coordinator: 0, members: [{ clientId: "billing-1", host: "/127.0.0.1", partitions: ["orders-0", "orders-1"] }] },
  ]);
  assert.equal(await admin.result("listConsumerGroupOffsets", { group: "billing" }), { "orders-0": 4, "orders-1": 4 });
  // A live group's offsets are its members' to commit, and it cannot be deleted.
  assert.is((await admin.failure("alterConsumerGroupOffsets", { group: "billing", offsets: [{ topic: "orders", partition: 0, offset: 1 }] })).error, "UnknownMemberIdException");
  assert.is((await admin.failure("deleteConsumerGroups", { groups: ["billing"] })).error, "GroupNotEmptyException");
  assert.is((await admin.failure("deleteConsumerGroupOffsets", { group: "billing", topic: "orders", partition: 0 })).error, "GroupSubscribedToTopicException");

  await stopRecorded(member);
  const [stopped] = (await admin.result("describeConsumerGroups", { groups: ["billing"] })) as { state: string; members: unknown[] }[];
  assert.equal([stopped.state, stopped.members], ["Empty", []]);
  assert.is(await admin.result("alterConsumerGroupOffsets", { group: "billing", offsets: [{ topic: "orders", partition: 0, offset: 1 }] }), "ok");
  assert.equal(await admin.result("listConsumerGroupOffsets", { group: "billing" }), { "orders-0": 1, "orders-1": 4 });
  assert.is(await admin.result("deleteConsumerGroupOffsets", { group: "billing", topic: "orders", partition: 1 }), "ok");
  assert.equal(await admin.result("listConsumerGroupOffsets", { group: "billing" }), { "orders-0": 1 });
  assert.is((await admin.failure("deleteConsumerGroupOffsets", { group: "nobody", topic: "orders", partition: 1 })).error, "GroupIdNotFoundException");

  assert.is(await admin.result("deleteConsumerGroups", { groups: ["billing"] }), "ok");
  assert.equal(await admin.result("listConsumerGroups"), []);
  assert.equal(await admin.result("listConsumerGroupOffsets", { group: "billing" }), {});
  assert.is((await admin.failure("deleteConsumerGroups", { groups: ["billing"] })).error, "GroupIdNotFoundException");
  await admin.close();
});

test("transactions: a kafka-clients transactional producer commits records and a group's offsets, and the AdminClient lists and describes its transaction", async () => {
  const admin = Admin.start(broker.bootstrap);
  await admin.result("createTopics", { topics: [{ name: "ledger-tx", partitions: 1 }] });
  const producer = java.start(TRANSACTIONAL_PRODUCER, [broker.bootstrap, "ledger-writer"], { jvmFlags: LOG_REQUESTS });
  for (const command of ["init", "begin", "send ledger-tx 0 k1 v1", "offsets auditors ledger-tx 0 1", "commit"]) {
    const from = producer.lines().length;
    producer.send(command);
    const answer = await producer.waitForLine(() => true, command, { from });
    assert.is(answer.ok, true, `${command}: ${JSON.stringify(answer)}`);
  }
  assert.equal(await admin.result("listTransactions"), [{ transactionalId: "ledger-writer", state: "CompleteCommit" }]);
  assert.equal(await admin.result("describeTransactions", { transactionalId: "ledger-writer" }), { state: "CompleteCommit", coordinator: 0, partitions: [] });
  assert.equal(await admin.result("listConsumerGroupOffsets", { group: "auditors" }), { "ledger-tx-0": 1 });
  producer.send("close");
  assert.is((await producer.exited).code, 0, producer.stderr());
  recordRequests(producer.stderr());
  await admin.close();
});

test("calls the broker does not offer fail at once with Kafka's UnsupportedVersionException, and the client goes on working", async () => {
  const admin = Admin.start(broker.bootstrap);
  await admin.result("createTopics", { topics: [{ name: "unsupported", partitions: 1 }] });
  const partition = { topic: "unsupported", partition: 0 };
  const unsupported: [string, Record<string, unknown>, string][] = [
    ["incrementalAlterConfigs", { type: "topic", name: "unsupported", ops: [{ op: "set", name: "retention.ms", value: "1000" }] }, "INCREMENTAL_ALTER_CONFIGS"],
    ["describeProducers", partition, "DESCRIBE_PRODUCERS"],
    ["describeClientQuotas", {}, "DESCRIBE_CLIENT_QUOTAS"],
    ["describeLogDirs", {}, "DESCRIBE_LOG_DIRS"],
    ["electLeaders", partition, "ELECT_LEADERS"],
    ["describeUserScramCredentials", {}, "DESCRIBE_USER_SCRAM_CREDENTIALS"],
  ];
  for (const [call, args, api] of unsupported) {
    assert.equal(await admin.failure(call, args), { error: "UnsupportedVersionException", message: `The node does not support ${api}` }, call);
  }
  assert.equal(((await admin.result("describeCluster")) as { controller: number }).controller, 0);
  await admin.close();
});

test("without an authorizer the ACL calls fail with SecurityDisabledException, as on Kafka", async () => {
  const admin = Admin.start(broker.bootstrap);
  const acl = { resourceType: "TOPIC", name: "ledger-", patternType: "PREFIXED", principal: "User:auditor", operation: "READ" };
  for (const [call, args] of [["describeAcls", {}], ["createAcls", acl], ["deleteAcls", acl]] as const) {
    assert.is((await admin.failure(call, args)).error, "SecurityDisabledException", call);
  }
  await admin.close();
});

test("with ACLs a super user creates, lists and deletes them; a user without ACLs is refused with Kafka's exceptions", async () => {
  const users = [{ name: "ops", password: "ops-secret" }, { name: "auditor", password: "auditor-secret" }];
  const secured = await startTestBroker({ sasl: { mechanisms: ["PLAIN"], users, maxReauthMs: 0 }, authorizer: { superUsers: ["User:ops"], allowEveryoneIfNoAclFound: false, acls: [] } });
  const login = (user: string) => ["security.protocol=SASL_PLAINTEXT", "sasl.mechanism=PLAIN", `sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="${user}" password="${user}-secret";`];
  try {
    const ops = Admin.start(secured.bootstrap, login("ops"));
    await ops.result("createTopics", { topics: [{ name: "ledger-2026", partitions: 1 }] });
    const acl = { resourceType: "TOPIC", name: "ledger-", patternType: "PREFIXED", principal: "User:auditor", operation: "DESCRIBE" };
    await ops.result("createAcls", acl);
    assert.equal(await ops.result("describeAcls"), ["ALLOW User:auditor DESCRIBE TOPIC:ledger- PREFIXED"]);

    const auditor = Admin.start(secured.bootstrap, login("auditor"));
    assert.equal(((await auditor.result("listTopics")) as { name: string }[]).map(({ name }) => name), ["ledger-2026"], "DESCRIBE lets the auditor see the topic");
    assert.is((await auditor.failure("deleteTopics", { topics: ["ledger-2026"] })).error, "TopicAuthorizationException");
    assert.is((await auditor.failure("describeAcls")).error, "ClusterAuthorizationException");
    assert.is((await auditor.failure("deleteConsumerGroups", { groups: ["ledger-readers"] })).error, "GroupAuthorizationException");
    await auditor.close();

    assert.equal(await ops.result("deleteAcls", acl), ["ALLOW User:auditor DESCRIBE TOPIC:ledger- PREFIXED"]);
    assert.equal(await ops.result("describeAcls"), []);
    await ops.close();
  } finally {
    await secured.close();
  }
});

test("the AdminClient authenticates with SCRAM-SHA-512 on a SASL listener, and a wrong password gets SaslAuthenticationException", async () => {
  const secured = await startTestBroker({ sasl: { mechanisms: ["SCRAM-SHA-512"], users: [{ name: "ops", password: "ops-secret" }], maxReauthMs: 0 } });
  try {
    const jaas = (password: string) => `sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="ops" password="${password}";`;
    const sasl = ["security.protocol=SASL_PLAINTEXT", "sasl.mechanism=SCRAM-SHA-512"];
    const admin = Admin.start(secured.bootstrap, [...sasl, jaas("ops-secret")]);
    assert.equal(((await admin.result("describeCluster")) as { nodes: unknown[] }).nodes, [{ id: 0, host: "127.0.0.1", port: secured.broker.port }]);
    await admin.close();
    authenticated = true;
    const refused = Admin.start(secured.bootstrap, [...sasl, jaas("wrong"), "default.api.timeout.ms=10000", "request.timeout.ms=5000"]);
    assert.is((await refused.failure("describeCluster")).error, "SaslAuthenticationException");
    await refused.close();
  } finally {
    await secured.close();
  }
});

test("a consumer protocol group (KIP-848): listed as Consumer, described with its assignor, epochs and members", async () => {
  const admin = Admin.start(broker.bootstrap);
  await admin.result("createTopics", { topics: [{ name: "invoices", partitions: 2 }] });
  const invoices = Array.from({ length: 6 }, (_, i) => JSON.stringify({ value: `invoice-${i}`, partition: i % 2 }));
  assert.is((await runJava(PRODUCER, [broker.bootstrap, "invoices"], invoices.join("\n"))).code, 0);
  const member = java.start(CONSUMER, [broker.bootstrap, "invoicing", "invoices", "client.id=invoicing-1", "group.protocol=consumer"], { jvmFlags: LOG_REQUESTS });
  await eventually(() => member.lines().filter((line) => line.event === "committed").reduce((sum, line) => sum + (line.records as number), 0) === 6, {
    timeoutMs: 60_000,
    what: "the member to read and commit the invoices",
  });
  assert.equal(await admin.result("listConsumerGroups"), [{ groupId: "invoicing", type: "Consumer", state: "Stable", simple: false }]);
  assert.equal(await admin.result("describeConsumerGroups", { groups: ["invoicing"] }), [
    { groupId: "invoicing", state: "Stable", type: "Consumer", partitionAssignor: "uniform", coordinator: 0, members: [{ clientId: "invoicing-1", host: "/127.0.0.1", partitions: ["invoices-0", "invoices-1"] }] },
  ]);
  assert.equal(await admin.result("listConsumerGroupOffsets", { group: "invoicing" }), { "invoices-0": 3, "invoices-1": 3 });
  await stopRecorded(member);
  const [stopped] = (await admin.result("describeConsumerGroups", { groups: ["invoicing"] })) as { state: string; members: unknown[] }[];
  assert.equal([stopped.state, stopped.members], ["Empty", []]);
  assert.is(await admin.result("deleteConsumerGroups", { groups: ["invoicing"] }), "ok");
  await admin.close();
});

/** Kafka's names of the APIs (JOIN_GROUP) from the broker's (JoinGroup). */
const kafkaName = (name: string) => name.replace(/([a-z])([A-Z])/g, "$1_$2").toUpperCase();

test("every API the broker advertises was used by these Java clients, each within the versions the broker advertises", async () => {
  const client = await RawKafkaClient.connect(broker.broker.port);
  const advertised = (await client.request(ApiVersions, 2, {})).apiKeys;
  client.close();
  const specs = Object.values(protocol as Record<string, unknown>).filter((value): value is ApiSpec => typeof value === "object" && value !== null && "apiKey" in value && "request" in value);
  const nameOf = new Map(specs.map((spec) => [spec.apiKey, kafkaName(spec.name)]));

  const sasl = new Set(["SASL_HANDSHAKE", "SASL_AUTHENTICATE"]);
  const unused: string[] = [];
  for (const { apiKey, minVersion, maxVersion } of advertised) {
    const name = nameOf.get(apiKey) ?? `api key ${apiKey}`;
    if (sasl.has(name)) {
      if (!authenticated) unused.push(name);
      continue;
    }
    const versions = [...(used.get(name) ?? [])];
    if (versions.length === 0) unused.push(name);
    // A client's first ApiVersions goes out at its own newest version; the broker answers it with its ranges, and the client asks again within them.
    const sent = name === "API_VERSIONS" ? versions.filter((version) => version <= maxVersion) : versions;
    for (const version of sent) assert.ok(version >= minVersion && version <= maxVersion, `${name} v${version} is outside ${minVersion}-${maxVersion}`);
  }
  assert.equal(unused, [], "advertised APIs no Java client of this suite used");
  // And the clients sent no API the broker does not advertise.
  const advertisedNames = new Set(advertised.map(({ apiKey }) => nameOf.get(apiKey)));
  assert.equal([...used.keys()].filter((name) => !advertisedNames.has(name)), []);
});

test.run();
