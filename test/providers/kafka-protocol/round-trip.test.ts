/**
 * Every message the protocol package declares, at every version in its range: a representative value (each field
 * present in that version given a distinct, non-default value; then again with every nullable field null) is
 * encoded, decoded, and compared, and the decoding must use up exactly the bytes written. A few requests are
 * also compared byte for byte with kafkajs's own encoders, an independent reading of the protocol guide.
 */
import fs from "node:fs";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import * as protocol from "../../../providers/kafka-protocol";
import {
  ApiCodec,
  ByteReader,
  ByteWriter,
  ChunkedBytes,
  DataCodec,
  MessageCodec,
  REQUEST_HEADER_VERSION,
  RequestHeaderFields,
  inRange,
  parseVersionRange,
  type ApiSpec,
  type DataSpec,
  type FieldSpec,
  type ScalarType,
} from "../../../providers/kafka-protocol";
import { REPO_ROOT } from "../../helpers/sluice";

const exported: unknown[] = Object.values(protocol);
const apis = exported.filter((value): value is ApiSpec => typeof value === "object" && value !== null && "apiKey" in value && "request" in value);
const dataMessages = exported.filter((value): value is DataSpec => typeof value === "object" && value !== null && "fields" in value && "versions" in value && !("apiKey" in value));

const exists = (field: FieldSpec, version: number) => inRange(parseVersionRange(field.versions ?? "0+"), version);
const nullableAt = (field: FieldSpec, version: number) => field.nullableVersions !== undefined && inRange(parseVersionRange(field.nullableVersions), version);

/** Distinct values, one after another, none of them a type's default. */
class Samples {
  private n = 0;

  scalar(type: ScalarType): unknown {
    const n = ++this.n;
    switch (type) {
      case "int8":
        return (n % 100) - 50 || 1;
      case "int16":
        return -1000 - n;
      case "int32":
        return 100_003 * n;
      case "int64":
        return -(BigInt(n) * 10_000_000_019n);
      case "boolean":
        return true;
      case "string":
        return `field-${n}-é`;
      case "bytes":
        return Buffer.from([n & 0xff, 0, 255]);
      case "records":
        // Larger than the writer's by-reference threshold, so the record set travels as a chunk of its own.
        return ChunkedBytes.of(Buffer.alloc(5_000, n & 0xff));
      case "uuid":
        return Buffer.alloc(16, n & 0xff).toString("base64url");
    }
  }

  /** The fields present in `version`, nullable ones null when `nulls` is set. */
  struct(fields: readonly FieldSpec[], version: number, nulls: boolean): Record<string, unknown> {
    const value: Record<string, unknown> = {};
    for (const field of fields) {
      if (!exists(field, version)) continue;
      if (nulls && nullableAt(field, version)) value[field.name] = null;
      else if ("fields" in field && field.single) value[field.name] = this.struct(field.fields, version, nulls);
      else if ("fields" in field) value[field.name] = [this.struct(field.fields, version, nulls), this.struct(field.fields, version, nulls)];
      else if (field.array) value[field.name] = [this.scalar(field.type), this.scalar(field.type)];
      else value[field.name] = this.scalar(field.type);
    }
    return value;
  }
}

/** Record sets compared as their bytes, whatever chunks they are held in. */
function plain(value: unknown): unknown {
  if (value instanceof ChunkedBytes) return value.toBuffer();
  if (Buffer.isBuffer(value) || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(plain);
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
}

/** The decoded value holds every declared field, and the written ones as written. */
function assertRoundTrip(fields: readonly FieldSpec[], version: number, written: Record<string, unknown>, decoded: Record<string, unknown>, path: string): void {
  assert.equal(Object.keys(decoded).sort(), fields.map((field) => field.name).sort(), `${path}: the fields decoded`);
  for (const field of fields) {
    if (!exists(field, version)) continue;
    const expected = written[field.name];
    const actual = decoded[field.name];
    if ("fields" in field && field.single && expected !== null) {
      assertRoundTrip(field.fields, version, expected as Record<string, unknown>, actual as Record<string, unknown>, `${path}.${field.name}`);
    } else if ("fields" in field && Array.isArray(expected)) {
      assert.is((actual as unknown[]).length, expected.length, `${path}.${field.name}: the elements`);
      expected.forEach((item, i) => assertRoundTrip(field.fields, version, item as Record<string, unknown>, (actual as Record<string, unknown>[])[i], `${path}.${field.name}[${i}]`));
    } else {
      assert.equal(plain(actual), plain(expected), `${path}.${field.name}`);
    }
  }
}

const headerCodec = new MessageCodec("RequestHeader", RequestHeaderFields);

function roundTripRequest(api: ApiCodec, version: number, body: Record<string, unknown>): void {
  const frame = Buffer.concat(api.encodeRequestFrame(41, version, "round-trip", body as never));
  assert.is(frame.readInt32BE(0), frame.length - 4, "the size prefix");
  const reader = new ByteReader(frame.subarray(4));
  assert.equal(headerCodec.decode(reader, REQUEST_HEADER_VERSION), { apiKey: api.apiKey, apiVersion: version, correlationId: 41, clientId: "round-trip" });
  const decoded = api.decodeRequest(reader, version) as Record<string, unknown>;
  assert.is(reader.remaining(), 0, `${api.spec.name} v${version} request: bytes left after decoding`);
  assertRoundTrip(api.spec.request, version, body, decoded, `${api.spec.name}Request v${version}`);
}

function roundTripResponse(api: ApiCodec, version: number, body: Record<string, unknown>): void {
  const frame = Buffer.concat(api.encodeResponseFrame(42, version, body as never));
  assert.is(frame.readInt32BE(0), frame.length - 4, "the size prefix");
  const reader = new ByteReader(frame.subarray(4));
  assert.is(reader.int32(), 42, "the correlation id");
  const decoded = api.decodeResponse(reader, version) as Record<string, unknown>;
  assert.is(reader.remaining(), 0, `${api.spec.name} v${version} response: bytes left after decoding`);
  assertRoundTrip(api.spec.response, version, body, decoded, `${api.spec.name}Response v${version}`);
}

const versionsOf = (range: { min: number; max: number }) => Array.from({ length: range.max - range.min + 1 }, (_, i) => range.min + i);

const roundTrips = suite("protocol messages: encode, decode, compare, at every version");

roundTrips("the package declares the APIs the broker and the client speak, and the consumer protocol", () => {
  assert.ok(apis.length >= 16, `${apis.length} APIs`);
  assert.equal(new Set(apis.map((api) => api.apiKey)).size, apis.length, "one declaration per api key");
  assert.equal(dataMessages.map((message) => message.name).sort(), ["ConsumerProtocolAssignment", "ConsumerProtocolSubscription"]);
});

roundTrips("every message file's declarations reach the package's index, so none escapes these round trips", () => {
  const folder = path.join(REPO_ROOT, "providers", "kafka-protocol", "messages");
  const files = fs.readdirSync(folder).filter((name) => name.endsWith(".ts"));
  assert.ok(files.length >= apis.length, `${files.length} message files`);
  for (const file of files) {
    const module: Record<string, unknown> = require(path.join(__dirname, "../../../providers/kafka-protocol/messages", file.replace(/\.ts$/, ".js")));
    const declared = Object.entries(module).filter(([, value]) => typeof value === "object" && value !== null && ("request" in value || "fields" in value));
    for (const [name, value] of declared) {
      assert.ok(exported.includes(value), `${file} declares ${name}, which the index of providers/kafka-protocol does not export`);
    }
  }
});

for (const spec of apis) {
  const api = new ApiCodec(spec);
  roundTrips(`${spec.name} (key ${spec.apiKey}) v${spec.versions}: requests and responses`, () => {
    for (const version of versionsOf(api.versions)) {
      for (const nulls of [false, true]) {
        const samples = new Samples();
        roundTripRequest(api, version, samples.struct(spec.request, version, nulls));
        roundTripResponse(api, version, samples.struct(spec.response, version, nulls));
      }
    }
  });
}

for (const spec of dataMessages) {
  const codec = new DataCodec(spec);
  roundTrips(`${spec.name} v${spec.versions}`, () => {
    for (const version of versionsOf(codec.versions)) {
      for (const nulls of [false, true]) {
        const value = new Samples().struct(spec.fields, version, nulls);
        const bytes = codec.encode(version, value as never);
        assert.is(bytes.readInt16BE(0), version, "the version prefix");
        const { version: decodedVersion, ...decoded } = codec.decode(bytes) as Record<string, unknown>;
        assert.is(decodedVersion, version);
        assertRoundTrip(spec.fields, version, value, decoded, `${spec.name} v${version}`);
      }
    }
  });
}

roundTrips.run();

const known = suite("protocol messages: requests byte for byte as kafkajs encodes them");

/** The request body kafkajs encodes for `api` at `version` from its own arguments. */
async function kafkajsBody(api: string, version: number, args: Record<string, unknown>): Promise<Buffer> {
  const request = require(`kafkajs/src/protocol/requests/${api}/v${version}/request`) as (args: Record<string, unknown>) => { encode(): Promise<{ buffer: Buffer }> };
  return (await request(args).encode()).buffer;
}

function ourBody<A extends ApiSpec>(spec: A, version: number, body: Record<string, unknown>): Buffer {
  const writer = new ByteWriter();
  new MessageCodec(spec.name, spec.request).encode(writer, version, body);
  return writer.finish();
}

async function assertSameBytes<A extends ApiSpec>(spec: A, versions: number[], kafkajsName: string, ours: (version: number) => Record<string, unknown>, theirs: (version: number) => Record<string, unknown>): Promise<void> {
  for (const version of versions) {
    assert.equal(ourBody(spec, version, ours(version)).toString("hex"), (await kafkajsBody(kafkajsName, version, theirs(version))).toString("hex"), `${spec.name} v${version}`);
  }
}

known("JoinGroup v0-5", () =>
  assertSameBytes(
    protocol.JoinGroup,
    [0, 1, 2, 3, 4, 5],
    "joinGroup",
    () => ({ groupId: "group-1", sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 60_000, memberId: "member-é", groupInstanceId: "instance-1", protocolType: "consumer", protocols: [{ name: "sluice-streams", metadata: Buffer.from([0, 0, 0, 0, 0, 1]) }] }),
    () => ({ groupId: "group-1", sessionTimeout: 10_000, rebalanceTimeout: 60_000, memberId: "member-é", groupInstanceId: "instance-1", protocolType: "consumer", groupProtocols: [{ name: "sluice-streams", metadata: Buffer.from([0, 0, 0, 0, 0, 1]) }] }),
  ),
);

known("SyncGroup v0-3 and Heartbeat v0-3", async () => {
  await assertSameBytes(
    protocol.SyncGroup,
    [0, 1, 2, 3],
    "syncGroup",
    () => ({ groupId: "g", generationId: 7, memberId: "m-1", groupInstanceId: null, assignments: [{ memberId: "m-1", assignment: Buffer.from("assigned") }] }),
    () => ({ groupId: "g", generationId: 7, memberId: "m-1", groupInstanceId: null, groupAssignment: [{ memberId: "m-1", memberAssignment: Buffer.from("assigned") }] }),
  );
  await assertSameBytes(
    protocol.Heartbeat,
    [0, 1, 2, 3],
    "heartbeat",
    () => ({ groupId: "g", generationId: 3, memberId: "m-2", groupInstanceId: null }),
    () => ({ groupId: "g", groupGenerationId: 3, memberId: "m-2", groupInstanceId: null }),
  );
});

known("OffsetCommit v2-5 and OffsetFetch v1-4", async () => {
  const partitions = [
    { partitionIndex: 0, committedOffset: 1234567890123n, committedMetadata: null },
    { partitionIndex: 2, committedOffset: 5n, committedMetadata: "meta" },
  ];
  await assertSameBytes(
    protocol.OffsetCommit,
    [2, 3, 4, 5],
    "offsetCommit",
    () => ({ groupId: "g", generationId: 4, memberId: "m", retentionTimeMs: -1n, topics: [{ name: "words", partitions }] }),
    () => ({ groupId: "g", groupGenerationId: 4, memberId: "m", retentionTime: -1, topics: [{ topic: "words", partitions: partitions.map(({ partitionIndex, committedOffset, committedMetadata }) => ({ partition: partitionIndex, offset: String(committedOffset), metadata: committedMetadata })) }] }),
  );
  await assertSameBytes(
    protocol.OffsetFetch,
    [1, 2, 3, 4],
    "offsetFetch",
    () => ({ groupId: "g", topics: [{ name: "words", partitionIndexes: [0, 1, 2] }] }),
    () => ({ groupId: "g", topics: [{ topic: "words", partitions: [{ partition: 0 }, { partition: 1 }, { partition: 2 }] }] }),
  );
});

known("Fetch v4-11", () =>
  assertSameBytes(
    protocol.Fetch,
    [4, 5, 6, 7, 8, 9, 10, 11],
    "fetch",
    (version) => ({
      replicaId: -1,
      maxWaitMs: 500,
      minBytes: 1,
      maxBytes: 10_485_760,
      isolationLevel: 1,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [{ topic: "words", partitions: [{ partition: 3, currentLeaderEpoch: -1, fetchOffset: 4_000_000_000n, logStartOffset: -1n, partitionMaxBytes: 1_048_576 }] }],
      forgottenTopicsData: [],
      rackId: version >= 11 ? "rack-1" : "",
    }),
    (version) => ({
      replicaId: -1,
      maxWaitTime: 500,
      minBytes: 1,
      maxBytes: 10_485_760,
      isolationLevel: 1,
      topics: [{ topic: "words", partitions: [{ partition: 3, fetchOffset: "4000000000", maxBytes: 1_048_576 }] }],
      rackId: version >= 11 ? "rack-1" : "",
    }),
  ),
);

known("ListOffsets v1-3, Metadata v4-6 and FindCoordinator v0-2", async () => {
  await assertSameBytes(
    protocol.ListOffsets,
    [1, 2, 3],
    "listOffsets",
    () => ({ replicaId: -1, isolationLevel: 1, topics: [{ name: "words", partitions: [{ partitionIndex: 1, timestamp: -2n }] }] }),
    () => ({ replicaId: -1, isolationLevel: 1, topics: [{ topic: "words", partitions: [{ partition: 1, timestamp: -2 }] }] }),
  );
  await assertSameBytes(
    protocol.Metadata,
    [4, 5, 6],
    "metadata",
    () => ({ topics: [{ name: "words" }, { name: "word-counts" }], allowAutoTopicCreation: false }),
    () => ({ topics: ["words", "word-counts"], allowAutoTopicCreation: false }),
  );
  await assertSameBytes(
    protocol.FindCoordinator,
    [0, 1, 2],
    "findCoordinator",
    () => ({ key: "wordcount", keyType: 0 }),
    () => ({ groupId: "wordcount", coordinatorKey: "wordcount", coordinatorType: 0 }),
  );
});

known.run();

const admin = suite("protocol messages: admin requests byte for byte as kafkajs encodes them");

admin("DescribeConfigs v0-2, DeleteGroups v0-1, DeleteRecords v0-1 and CreatePartitions v0-1", async () => {
  await assertSameBytes(
    protocol.DescribeConfigs,
    [0, 1, 2],
    "describeConfigs",
    () => ({ resources: [{ resourceType: 2, resourceName: "words", configurationKeys: ["retention.ms", "cleanup.policy"] }, { resourceType: 4, resourceName: "0", configurationKeys: null }], includeSynonyms: true }),
    () => ({ resources: [{ type: 2, name: "words", configNames: ["retention.ms", "cleanup.policy"] }, { type: 4, name: "0" }], includeSynonyms: true }),
  );
  await assertSameBytes(protocol.DeleteGroups, [0, 1], "deleteGroups", () => ({ groupsNames: ["wordcount", "é-group"] }), () => ["wordcount", "é-group"] as never);
  await assertSameBytes(
    protocol.DeleteRecords,
    [0, 1],
    "deleteRecords",
    () => ({ topics: [{ name: "wordcount-repartition", partitions: [{ partitionIndex: 2, offset: 5_000_000_000n }] }], timeoutMs: 5_000 }),
    () => ({ topics: [{ topic: "wordcount-repartition", partitions: [{ partition: 2, offset: "5000000000" }] }], timeout: 5_000 }),
  );
  await assertSameBytes(
    protocol.CreatePartitions,
    [0, 1],
    "createPartitions",
    () => ({ topics: [{ name: "words", count: 4, assignments: [{ brokerIds: [0] }, { brokerIds: [0] }] }, { name: "clicks", count: 2, assignments: null }], timeoutMs: 5_000, validateOnly: true }),
    () => ({ topicPartitions: [{ topic: "words", count: 4, assignments: [[0], [0]] }, { topic: "clicks", count: 2 }], timeout: 5_000, validateOnly: true }),
  );
});

admin.run();

const flexible = suite("protocol messages: flexible versions as the protocol guide lays them out");

flexible("a flexible request: header v2, compact arrays and strings, a tagged-field count after every struct", () => {
  const frame = Buffer.concat(new ApiCodec(protocol.DeleteRecords).encodeRequestFrame(7, 2, "c", { topics: [{ name: "t", partitions: [{ partitionIndex: 3, offset: 42n }] }], timeoutMs: 5_000 }));
  const expected = [
    "00000023", // size: 35 bytes follow
    "0015 0002 00000007 0001 63 00", // api key 21, version 2, correlation id, client id (int16 length, as in v1), header tags
    "02 0274 02 00000003 000000000000002a 00 00", // 1 topic "t", 1 partition: index 3, offset 42, partition tags, topic tags
    "00001388 00", // timeout 5000, the request's tags
  ].join("").replace(/ /g, "");
  assert.is(frame.toString("hex"), expected);
});

flexible("a flexible response: tagged fields are read past, lengths over 127 take two varint bytes", () => {
  const host = "h".repeat(200);
  const bytes = Buffer.concat([
    Buffer.from("01 05 02 abcd".replace(/ /g, ""), "hex"), // response header v1: one tagged field (tag 5, 2 bytes)
    Buffer.from("00000000 0000 00 03 6964 00000000".replace(/ /g, ""), "hex"), // throttle, error, null message, cluster "id", controller 0
    Buffer.from("02 00000000 c901".replace(/ /g, ""), "hex"), // one broker: id 0, host length 200 + 1 = 0xc9 0x01
    Buffer.from(host),
    Buffer.from("00002328 00 02 00 01 ff 07 00".replace(/ /g, ""), "hex"), // port 9000, null rack, two tagged fields in the broker's struct
    Buffer.from("80000000 00".replace(/ /g, ""), "hex"), // authorized operations, the response's tags
  ]);
  const reader = new ByteReader(bytes);
  const decoded = new ApiCodec(protocol.DescribeCluster).decodeResponse(reader, 0);
  assert.is(reader.remaining(), 0);
  assert.equal(decoded.brokers, [{ brokerId: 0, host, port: 9000, rack: null }]);
  assert.is(decoded.clusterId, "id");
  assert.is(decoded.errorMessage, null);
});

flexible.run();
