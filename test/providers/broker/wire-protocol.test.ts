import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ErrorCode } from "../../../providers/kafka-protocol/error-codes";
import { ApiVersions } from "../../../providers/kafka-protocol/messages/api-versions";
import { Fetch } from "../../../providers/kafka-protocol/messages/fetch";
import { Metadata } from "../../../providers/kafka-protocol/messages/metadata";
import { Produce } from "../../../providers/kafka-protocol/messages/produce";
import { eventually } from "../../helpers/eventually";
import { startTestBroker, type TestBroker } from "./broker-test-kit";
import { RawKafkaClient } from "./raw-kafka-client";

const test = suite<{ broker: TestBroker; raw: RawKafkaClient[] }>("broker: wire protocol");

const MAX_REQUEST_BYTES = 1024 * 1024;

test.before.each(async (context) => {
  context.broker = await startTestBroker({ maxRequestBytes: MAX_REQUEST_BYTES });
  context.raw = [];
});

test.after.each(async ({ broker, raw }) => {
  for (const client of raw) client.close();
  await broker.close();
});

async function rawClient(context: { broker: TestBroker; raw: RawKafkaClient[] }): Promise<RawKafkaClient> {
  const client = await RawKafkaClient.connect(context.broker.broker.port);
  context.raw.push(client);
  return client;
}

function isClosedWithin(client: RawKafkaClient, ms: number): Promise<boolean> {
  return Promise.race([client.closed.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())]);
}

test("ApiVersions advertises every implemented API with the versions it implements", async (context) => {
  const client = await rawClient(context);
  const response = await client.request(ApiVersions, 2, {});
  assert.is(response.errorCode, ErrorCode.NONE);
  const ranges = new Map(response.apiKeys.map(({ apiKey, minVersion, maxVersion }) => [apiKey, `${minVersion}-${maxVersion}`]));
  assert.equal(Object.fromEntries(ranges), {
    0: "3-8",
    1: "4-11",
    2: "0-8",
    3: "0-11",
    8: "0-9",
    9: "0-7",
    10: "0-2",
    11: "0-5",
    12: "0-3",
    13: "0-3",
    14: "0-3",
    15: "0-4",
    16: "0-5",
    17: "0-1",
    18: "0-2",
    19: "0-4",
    20: "0-3",
    21: "0-2",
    22: "0-5",
    24: "0-3",
    25: "0-4",
    26: "0-4",
    28: "0-4",
    29: "1-3",
    30: "1-3",
    31: "1-3",
    32: "0-4",
    36: "0-1",
    37: "0-3",
    42: "0-2",
    47: "0-0",
    60: "0-1",
    65: "0-0",
    66: "0-2",
    68: "0-1",
    69: "0-0",
  });
});

test("ApiVersions asked with a newer version answers a v0 body with UNSUPPORTED_VERSION and the ranges", async (context) => {
  const client = await rawClient(context);
  const correlationId = client.send(ApiVersions, 3, {});
  const raw = await client.next();
  assert.is(raw.correlationId, correlationId);
  const response = RawKafkaClient.decode(ApiVersions, 0, raw);
  assert.is(response.errorCode, ErrorCode.UNSUPPORTED_VERSION);
  assert.equal(
    response.apiKeys.find(({ apiKey }) => apiKey === ApiVersions.apiKey),
    { apiKey: ApiVersions.apiKey, minVersion: 0, maxVersion: 2 },
  );
});

test("pipelined requests are answered in order even when a later one finishes first", async (context) => {
  const admin = context.broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "idle" }] });
  const client = await rawClient(context);
  const startedAt = Date.now();
  const fetchId = client.send(Fetch, 11, {
    replicaId: -1,
    maxWaitMs: 300,
    minBytes: 1,
    isolationLevel: 0,
    sessionId: 0,
    topics: [{ topic: "idle", partitions: [{ partition: 0, fetchOffset: 0n, partitionMaxBytes: 1024 }] }],
    forgottenTopicsData: [],
    rackId: "",
  });
  const metadataId = client.send(Metadata, 8, { topics: null, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false });

  const first = await client.next();
  assert.is(first.correlationId, fetchId);
  // The fetch waited for data that never came; the metadata response waited behind it.
  assert.ok(Date.now() - startedAt >= 250);
  const fetched = RawKafkaClient.decode(Fetch, 11, first);
  assert.is(fetched.responses[0].partitions[0].errorCode, ErrorCode.NONE);
  assert.is(fetched.responses[0].partitions[0].records?.length, 0);
  const second = await client.next();
  assert.is(second.correlationId, metadataId);
  assert.equal(RawKafkaClient.decode(Metadata, 8, second).topics.map(({ name }) => name), ["idle"]);
});

test("a produce request with acks=0 gets no response, and the next request's response follows", async (context) => {
  const admin = context.broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "fire-and-forget" }] });
  const client = await rawClient(context);
  client.send(Produce, 8, { transactionalId: null, acks: 0, timeoutMs: 1000, topicData: [{ name: "fire-and-forget", partitionData: [{ index: 0, records: null }] }] });
  const metadataId = client.send(Metadata, 1, { topics: [], includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false });
  assert.is((await client.next()).correlationId, metadataId);
});

test("garbage, oversize frames and unknown api keys close only their own connection and leave the log intact", async (context) => {
  const kafka = context.broker.kafka();
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic: "sturdy", messages: [{ value: "before" }] });

  const garbage = await rawClient(context);
  garbage.writeRaw(Buffer.from([0, 0, 0, 6, 0xde, 0xad, 0xbe, 0xef, 0x00, 0x01]));
  const oversize = await rawClient(context);
  const header = Buffer.alloc(4);
  header.writeInt32BE(MAX_REQUEST_BYTES + 1);
  oversize.writeRaw(header);
  const unknownApi = await rawClient(context);
  unknownApi.send(ApiVersions, 0, {}, 999);
  const truncatedProduce = await rawClient(context);
  const frame = Buffer.from([0, 0, 0, 14, 0, 0, 0, 8, 0, 0, 0, 1, 0xff, 0xff, 0, 0, 0, 9]);
  truncatedProduce.writeRaw(frame);

  for (const client of [garbage, oversize, unknownApi, truncatedProduce]) assert.ok(await isClosedWithin(client, 2_000));

  await producer.send({ topic: "sturdy", messages: [{ value: "after" }] });
  const values: string[] = [];
  const consumer = kafka.consumer({ groupId: "sturdy-readers", maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: "sturdy", fromBeginning: true });
  await consumer.run({ eachMessage: async ({ message }) => void values.push(String(message.value)) });
  await eventually(() => values.length >= 2, { what: "both records" });
  assert.equal(values, ["before", "after"]);
});

test.run();
