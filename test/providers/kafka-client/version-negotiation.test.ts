/**
 * Version negotiation against an embedded broker that serves fewer versions than it implements (and closes the
 * connection on a request in any other, as Kafka 4.x does on a removed one): the client sends the highest version
 * both sides speak of every API, and a broker sharing none of an API the client sends stops it at once — the
 * application goes to ERROR naming the API and both ranges.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { BrokerConnection } from "../../../providers/kafka-client/broker-connection";
import { CLIENT_APIS } from "../../../providers/kafka-client/client-apis";
import { checkClusterAccess, GroupConsumer, RecordProducer, UnsupportedVersionError } from "../../../providers/kafka-client";
import { createLogger } from "../../../kernel/logger";
import { decodeAssignment, encodeAssignment, encodeSubscription } from "../../../providers/kafka-protocol";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples } from "../../helpers/streams";
import { startTestBroker } from "../broker/broker-test-kit";

const CONNECTION = { clientId: "negotiation", connectTimeoutMs: 5_000, requestTimeoutMs: 10_000, maxResponseBytes: 1 << 24 };

/** A broker of an older Kafka: each API a little short of what the embedded broker implements. */
const OLDER: Record<string, string> = {
  Metadata: "0-5",
  Produce: "3-5",
  Fetch: "4-7",
  ListOffsets: "0-2",
  FindCoordinator: "0-1",
  JoinGroup: "0-3",
  SyncGroup: "0-1",
  Heartbeat: "0-1",
  LeaveGroup: "0-1",
  OffsetCommit: "0-3",
  OffsetFetch: "0-2",
  InitProducerId: "0-1",
};

test("against an older broker the client sends each API's highest common version, and produces and consumes with them", async () => {
  const broker = await startTestBroker({ apiVersions: OLDER, autoCreateTopics: false });
  const producer = new RecordProducer({ bootstrapServers: [broker.bootstrap], clientId: "negotiation" });
  let consumer: GroupConsumer | undefined;
  try {
    const connection = await BrokerConnection.open(broker.bootstrap, CONNECTION);
    const chosen = Object.fromEntries(CLIENT_APIS.map((api) => [api.spec.name, connection.versionOf(api)]));
    connection.close();
    assert.equal(chosen, {
      ApiVersions: 2,
      Metadata: 5,
      Produce: 5,
      Fetch: 7,
      ListOffsets: 2,
      FindCoordinator: 1,
      JoinGroup: 3,
      SyncGroup: 1,
      Heartbeat: 1,
      LeaveGroup: 1,
      OffsetCommit: 3,
      OffsetFetch: 2,
      InitProducerId: 1,
    });

    const admin = broker.kafka().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: "negotiated", numPartitions: 2 }] });
    await producer.connect();
    const records = (from: number) => Array.from({ length: 5 }, (_, i) => ({ key: null, value: Buffer.from(`v${from + i}`), timestamp: Date.now() }));
    await producer.send([
      { topic: "negotiated", partition: 0, records: records(0) },
      { topic: "negotiated", partition: 1, records: records(5) },
    ]);

    const read: string[] = [];
    const failures: unknown[] = [];
    consumer = new GroupConsumer(
      {
        bootstrapServers: [broker.bootstrap],
        clientId: "negotiation",
        groupId: "negotiation",
        heartbeatIntervalMs: 100,
        maxWaitMs: 50,
        assignor: {
          name: "everything",
          subscription: () => encodeSubscription(["negotiated"], null),
          assign: async (members) => new Map(members.map(({ memberId }) => [memberId, encodeAssignment({ negotiated: [0, 1] })])),
          partitionsOf: decodeAssignment,
        },
      },
      {
        rebalancing: () => undefined,
        assigned: async () => undefined,
        batch: async (batch) => {
          for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) read.push(record.value!.toString());
        },
        failed: (error) => void failures.push(error),
      },
    );
    await consumer.start();
    await eventually(() => read.length === 10 || failures.length > 0, { what: "the ten records consumed" });
    assert.equal(failures, []);
    assert.equal(read.sort(), ["v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9"]);
    await eventually(async () => {
      const [{ partitions }] = await admin.fetchOffsets({ groupId: "negotiation", topics: ["negotiated"] });
      return partitions.every((partition) => partition.offset === "5");
    }, { what: "the group's commits, made with OffsetCommit v3" });
  } finally {
    await consumer?.stop();
    await producer.close();
    await broker.close();
  }
});

test("the versions negotiated with the cluster are logged at debug level, before the clients start", async () => {
  const broker = await startTestBroker({ apiVersions: OLDER });
  try {
    const lines: string[] = [];
    await checkClusterAccess({ bootstrapServers: [broker.bootstrap] }, "negotiation", createLogger("debug", {}, (line) => void lines.push(line)));
    const logged = lines.map((line) => JSON.parse(line)).find((line) => line.msg === "negotiated API versions");
    assert.is(logged?.level, "debug");
    assert.is(logged.broker, broker.bootstrap);
    // ApiVersions is not negotiated: it is sent at version 0 before the broker's versions are known.
    assert.equal(logged.versions, { Metadata: 5, Produce: 5, Fetch: 7, ListOffsets: 2, FindCoordinator: 1, JoinGroup: 3, SyncGroup: 1, Heartbeat: 1, LeaveGroup: 1, OffsetCommit: 3, OffsetFetch: 2, InitProducerId: 1 });
  } finally {
    await broker.close();
  }
});

test("a broker that shares no version of an API the client sends refuses the producer and the consumer at once", async () => {
  const broker = await startTestBroker({ apiVersions: { OffsetCommit: "0-1" } });
  const producer = new RecordProducer({ bootstrapServers: [broker.bootstrap], clientId: "too-old" });
  try {
    const message = `broker ${broker.bootstrap} and Sluice share no version of OffsetCommit: Sluice sends 2-9, the broker accepts 0-1`;
    const refused = await producer.connect().then(() => null, (error: Error) => error);
    assert.instance(refused, UnsupportedVersionError);
    assert.is(refused!.message, message);
    const consumer = new GroupConsumer(
      { bootstrapServers: [broker.bootstrap], clientId: "too-old", groupId: "too-old", assignor: { name: "none", subscription: () => encodeSubscription([], null), assign: async () => new Map(), partitionsOf: decodeAssignment } },
      { rebalancing: () => undefined, assigned: async () => undefined, batch: async () => undefined, failed: () => undefined },
    );
    const alsoRefused = await consumer.start().then(() => null, (error: Error) => error);
    assert.is(alsoRefused?.message, message);
  } finally {
    await producer.close();
    await broker.close();
  }
});

test("an application on a broker too old for it goes to ERROR naming the API and both ranges, instead of retrying", async () => {
  const broker = await startTestBroker({ apiVersions: { JoinGroup: "0-1" } });
  const sluice = await startSluiceWithExamples({ "streams.bootstrap.servers": broker.bootstrap, "streams.auto.create.topics": "true" });
  try {
    const app = await eventually(
      async () => {
        const description = (await http(`${sluice.url}/api/v1/streams/wordcount`)).json();
        return description.state.state === "ERROR" ? description : undefined;
      },
      { timeoutMs: 15_000, what: "wordcount in ERROR" },
    );
    assert.is(app.exception, `UnsupportedVersionError: broker ${broker.bootstrap} and Sluice share no version of JoinGroup: Sluice sends 2-5, the broker accepts 0-1`);
  } finally {
    await sluice.close();
    await broker.close();
  }
});

test.run();
