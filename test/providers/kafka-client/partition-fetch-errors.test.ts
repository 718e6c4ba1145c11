/**
 * A fetch error on one leader does not stall the others' partitions. The embedded broker is made to look like a
 * cluster of two: a front proxy rewrites Metadata answers so that partition 1's leader is a second "broker", node 1,
 * reached through a chaos proxy that can refuse connections; partition 0 stays with node 0. While node 1 is down,
 * partition 0 is read on; once it is back, partition 1 is read from where it was, each record once. The same proxy
 * answers partition 1's fetches with a leader's errors (its records dropped), and counts the Metadata requests.
 */
import net from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { KafkaProxy } from "../../helpers/kafka-proxy";
import { ApiCodec, ByteReader, ErrorCode, Fetch, FrameSplitter, Metadata } from "../../../providers/kafka-protocol";
import { PartitionFetcher, RecordProducer, type FetchAnswer } from "../../../providers/kafka-client";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";

const METADATA = new ApiCodec(Metadata);
const FETCH = new ApiCodec(Fetch);
const TOPIC = "split";

/**
 * Forwards to the broker; Metadata answers name two brokers, `front` (node 0) and `second` (node 1, partition 1's
 * leader). The next Fetch answers through it that hold partition 1 get the error codes of `partitionOneErrors`.
 */
class SplitLeaderProxy {
  private readonly sockets = new Set<net.Socket>();
  readonly partitionOneErrors: number[] = [];
  metadataRequests = 0;

  private constructor(
    private readonly server: net.Server,
    private readonly broker: { host: string; port: number },
    private readonly second: () => number,
  ) {}

  static async start(broker: { host: string; port: number }, second: () => number): Promise<SplitLeaderProxy> {
    const server = net.createServer();
    const proxy = new SplitLeaderProxy(server, broker, second);
    server.on("connection", (client) => proxy.accept(client));
    await new Promise<void>((resolve) => server.listen(0, broker.host, resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private accept(client: net.Socket): void {
    const upstream = net.connect(this.broker.port, this.broker.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on("error", () => undefined).on("close", () => (client.destroy(), upstream.destroy()));
    }
    const rewritten = new Map<number, { apiKey: number; version: number }>();
    const requests = new FrameSplitter(1 << 30);
    const responses = new FrameSplitter(1 << 30);
    client.on("data", (chunk: Buffer) => {
      for (const frame of requests.push(chunk).map((bytes) => bytes.toBuffer())) {
        const apiKey = frame.readInt16BE(0);
        if (apiKey === Metadata.apiKey) this.metadataRequests++;
        if (apiKey === Metadata.apiKey || apiKey === Fetch.apiKey) rewritten.set(frame.readInt32BE(4), { apiKey, version: frame.readInt16BE(2) });
        upstream.write(Buffer.concat([lengthOf(frame), frame]));
      }
    });
    upstream.on("data", (chunk: Buffer) => {
      for (const frame of responses.push(chunk).map((bytes) => bytes.toBuffer())) {
        const correlationId = frame.readInt32BE(0);
        const request = rewritten.get(correlationId);
        rewritten.delete(correlationId);
        if (request === undefined) client.write(Buffer.concat([lengthOf(frame), frame]));
        else if (request.apiKey === Metadata.apiKey) client.write(this.rewriteMetadata(correlationId, request.version, frame));
        else client.write(this.rewriteFetch(correlationId, request.version, frame));
      }
    });
  }

  private rewriteFetch(correlationId: number, version: number, frame: Buffer): Buffer {
    const reader = new ByteReader(frame);
    reader.int32();
    const answer = FETCH.decodeResponse(reader, version);
    const partitionOne = answer.responses.flatMap(({ partitions }) => partitions).find(({ partitionIndex }) => partitionIndex === 1);
    const errorCode = partitionOne === undefined ? undefined : this.partitionOneErrors.shift();
    if (errorCode === undefined) return Buffer.concat([lengthOf(frame), frame]);
    Object.assign(partitionOne!, { errorCode, records: null, highWatermark: -1n });
    return Buffer.concat(FETCH.encodeResponseFrame(correlationId, version, answer));
  }

  private rewriteMetadata(correlationId: number, version: number, frame: Buffer): Buffer {
    const reader = new ByteReader(frame);
    reader.int32();
    const answer = METADATA.decodeResponse(reader, version);
    const { host } = this.broker;
    answer.brokers = [
      { nodeId: 0, host, port: this.port, rack: null },
      { nodeId: 1, host, port: this.second(), rack: null },
    ];
    for (const topic of answer.topics) for (const partition of topic.partitions) if (partition.partitionIndex === 1) partition.leaderId = 1;
    return Buffer.concat(METADATA.encodeResponseFrame(correlationId, version, answer));
  }
}

/** FrameSplitter hands out frames without their size prefix. */
const lengthOf = (frame: Buffer) => {
  const size = Buffer.alloc(4);
  size.writeInt32BE(frame.length);
  return size;
};

interface Context {
  broker: TestBroker;
  second: KafkaProxy;
  front: SplitLeaderProxy;
  nodeOnePort: () => number;
  closing: { close(): unknown }[];
}

const test = suite<Context>("kafka client: fetch errors per partition");

test.before.each(async (context) => {
  context.broker = await startTestBroker({ autoCreateTopics: false });
  const target = { host: context.broker.broker.host, port: context.broker.broker.port };
  context.second = await KafkaProxy.start(target.host, target.port);
  context.nodeOnePort = () => context.second.port;
  context.front = await SplitLeaderProxy.start(target, () => context.nodeOnePort());
  context.closing = [];
  const admin = context.broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: TOPIC, numPartitions: 2 }] });
  await admin.disconnect();
});

test.after.each(async ({ broker, second, front, closing }) => {
  for (const client of closing) await client.close();
  await front.close();
  await second.close();
  await broker.close();
});

/** Writes `count` records `<partition>:<n>` to a partition, numbered from `from`. */
function writerTo(producer: RecordProducer) {
  return (partition: number, from: number, count: number) =>
    producer.send([{ topic: TOPIC, partition, records: Array.from({ length: count }, (_, i) => ({ key: null, value: Buffer.from(`${partition}:${from + i}`), timestamp: Date.now() })) }]);
}

test("while partition 1's leader is unreachable, partition 0 is read on; then partition 1 from where it was, each record once", async (context) => {
  const bootstrap = [`${context.broker.broker.host}:${context.front.port}`];
  const producer = new RecordProducer({ bootstrapServers: bootstrap, clientId: "split-producer", retryBackoffMs: 20 });
  const fetcher = new PartitionFetcher({ bootstrapServers: bootstrap, clientId: "split-fetcher", maxWaitMs: 20, retryBackoffMs: 20, retryBackoffMaxMs: 100 });
  context.closing.push(producer, fetcher);
  const write = writerTo(producer);
  await write(0, 0, 10);
  await write(1, 0, 10);

  const read: string[][] = [[], []];
  const offsets = [0, 0];
  const round = async (): Promise<FetchAnswer> => {
    const answer = await fetcher.fetch([0, 1].map((partition) => ({ topic: TOPIC, partition, offset: offsets[partition] })));
    for (const batch of answer.batches) {
      for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) read[batch.partition].push(record.value!.toString());
      offsets[batch.partition] = batch.nextOffset;
    }
    await fetcher.recover(answer.errors, "fetching");
    return answer;
  };
  while (read[0].length < 10 || read[1].length < 10) await round();

  // Node 1 goes down: its connections are reset and new ones refused for a long while.
  context.second.reset(600_000);
  const errors: number[] = [];
  for (let i = 0; i < 200 && errors.length === 0; i++) errors.push(...(await round()).errors.map(({ partition }) => partition));
  await write(0, 10, 10);
  for (let i = 0; i < 200 && read[0].length < 20; i++) errors.push(...(await round()).errors.map(({ partition }) => partition));
  assert.is(read[0].length, 20, "partition 0 was read on while partition 1's leader was down");
  assert.ok(errors.length > 0 && errors.every((partition) => partition === 1), `only partition 1 failed: ${errors.join(",")}`);

  // Node 1 comes back; the records written to partition 1 meanwhile (through node 1, once it is up) are read once.
  context.second.reset(0);
  await write(1, 10, 10);
  for (let i = 0; i < 500 && read[1].length < 20; i++) await round();
  const expected = (partition: number) => Array.from({ length: 20 }, (_, i) => `${partition}:${i}`);
  assert.equal(read, [expected(0), expected(1)]);
});

/**
 * Writes 10 + 10 records to each partition while partition 1's next fetches are answered `errors`, and reads both
 * partitions to the end, recovering after each round: what was read, the errors met, and whether each error was
 * followed by a metadata refresh.
 */
async function readThroughErrors(context: Context, errors: number[]): Promise<{ read: string[][]; failures: number[]; refreshedEachTime: boolean }> {
  // Node 1 at the front proxy's address: both partitions are fetched through it, where their answers are rewritten.
  context.nodeOnePort = () => context.front.port;
  const bootstrap = [`${context.broker.broker.host}:${context.front.port}`];
  const producer = new RecordProducer({ bootstrapServers: bootstrap, clientId: "split-producer" });
  const fetcher = new PartitionFetcher({ bootstrapServers: bootstrap, clientId: "split-fetcher", maxWaitMs: 20, retryBackoffMs: 20, retryBackoffMaxMs: 100 });
  context.closing.push(producer, fetcher);
  const write = writerTo(producer);
  await write(0, 0, 10);
  await write(1, 0, 10);
  context.front.partitionOneErrors.push(...errors);

  const read: string[][] = [[], []];
  const offsets = [0, 0];
  const failures: number[] = [];
  let refreshedEachTime = true;
  for (let i = 0; i < 500 && (read[0].length < 20 || read[1].length < 20); i++) {
    if (i === 1) await Promise.all([write(0, 10, 10), write(1, 10, 10)]);
    const metadataBefore = context.front.metadataRequests;
    const answer = await fetcher.fetch([0, 1].map((partition) => ({ topic: TOPIC, partition, offset: offsets[partition] })));
    for (const batch of answer.batches) {
      for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) read[batch.partition].push(record.value!.toString());
      offsets[batch.partition] = batch.nextOffset;
    }
    failures.push(...answer.errors.map(({ errorCode }) => errorCode));
    await fetcher.recover(answer.errors, "fetching");
    if (answer.errors.length > 0) refreshedEachTime &&= context.front.metadataRequests > metadataBefore;
  }
  return { read, failures, refreshedEachTime };
}

const bothPartitionsRead = (partition: number) => Array.from({ length: 20 }, (_, i) => `${partition}:${i}`);

test("a leader's NOT_LEADER_OR_FOLLOWER, FENCED_LEADER_EPOCH and UNKNOWN_TOPIC_OR_PARTITION for one partition: it is fetched again from the same offset after a metadata refresh, each record once, while the other is read on", async (context) => {
  const errors = [ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.FENCED_LEADER_EPOCH, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION];
  const { read, failures, refreshedEachTime } = await readThroughErrors(context, errors);
  assert.equal(failures, errors);
  assert.ok(refreshedEachTime, "each error is followed by a metadata refresh");
  assert.equal(read, [bothPartitionsRead(0), bothPartitionsRead(1)]);
});

// As Kafka's consumer: it logs the error and fetches the partition again; Sluice's fetcher used to throw, and a
// stream thread went to ERROR.
test("a broker's UNKNOWN_SERVER_ERROR for one partition: it is fetched again from the same offset after a backoff, each record once", async (context) => {
  const errors = [ErrorCode.UNKNOWN_SERVER_ERROR, ErrorCode.UNKNOWN_SERVER_ERROR];
  const { read, failures } = await readThroughErrors(context, errors);
  assert.equal(failures, errors);
  assert.equal(read, [bothPartitionsRead(0), bothPartitionsRead(1)]);
});

test("the layout is asked again once older than metadata.max.age.ms, and only then", async (context) => {
  const bootstrap = [`${context.broker.broker.host}:${context.front.port}`];
  const agedFetcher = new PartitionFetcher({ bootstrapServers: bootstrap, clientId: "aged", maxWaitMs: 50, metadataMaxAgeMs: 200 });
  const keptFetcher = new PartitionFetcher({ bootstrapServers: bootstrap, clientId: "kept", maxWaitMs: 50 });
  context.closing.push(agedFetcher, keptFetcher);
  const refreshesWhile = async (fetcher: PartitionFetcher, goOn: (refreshes: number, ms: number) => boolean) => {
    const before = context.front.metadataRequests;
    const started = Date.now();
    while (goOn(context.front.metadataRequests - before, Date.now() - started)) await fetcher.fetch([{ topic: TOPIC, partition: 0, offset: 0 }]);
    return { refreshes: context.front.metadataRequests - before, ms: Date.now() - started };
  };
  const kept = await refreshesWhile(keptFetcher, (_, ms) => ms < 1_000);
  assert.is(kept.refreshes, 1, "the first round's refresh only, with the default age of 5 minutes");
  const aged = await refreshesWhile(agedFetcher, (refreshes, ms) => refreshes < 3 && ms < 20_000);
  assert.is(aged.refreshes, 3, "three refreshes at an age of 200 ms");
  assert.ok(aged.ms >= 400, `never sooner than the age allows: 3 refreshes in ${aged.ms} ms`);
});

test.run();
