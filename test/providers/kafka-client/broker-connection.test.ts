import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ApiCodec, ApiVersions, ByteReader, FrameSplitter, Metadata } from "../../../providers/kafka-protocol";
import { BrokerConnection } from "../../../providers/kafka-client/broker-connection";
import { CLIENT_APIS, METADATA, PRODUCE } from "../../../providers/kafka-client/client-apis";
import { BrokerConnectionError, UnsupportedVersionError } from "../../../providers/kafka-client";

const API_VERSIONS = new ApiCodec(ApiVersions);
const METADATA_RESPONSE = new ApiCodec(Metadata);

/** Every API the client sends, in the versions it sends; `changes` replaces some ranges, null leaves an API out. */
function advertised(changes: Record<number, [number, number] | null> = {}): { apiKey: number; minVersion: number; maxVersion: number }[] {
  return CLIENT_APIS.flatMap(({ apiKey, versions }) => {
    const range = apiKey in changes ? changes[apiKey] : [versions.min, versions.max];
    return range === null ? [] : [{ apiKey, minVersion: range[0], maxVersion: range[1] }];
  });
}

interface Request {
  apiKey: number;
  apiVersion: number;
  correlationId: number;
  socket: Socket;
}

/** A scripted broker: answers ApiVersions with `versions`, hands every other request to `onRequest`. */
class ScriptedBroker {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly onRequest: (request: Request) => void,
    private readonly versions = advertised(),
  ) {
    this.server = createServer((socket) => this.accept(socket));
  }

  async listen(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(socket: Socket): void {
    this.sockets.add(socket);
    socket.on("close", () => this.sockets.delete(socket));
    const frames = new FrameSplitter(1 << 20);
    socket.on("data", (chunk: Buffer) => {
      for (const frame of frames.push(chunk)) {
        const reader = new ByteReader(frame);
        const request = { apiKey: reader.int16(), apiVersion: reader.int16(), correlationId: reader.int32(), socket };
        if (request.apiKey === 18) {
          for (const part of API_VERSIONS.encodeResponseFrame(request.correlationId, 0, { errorCode: 0, apiKeys: this.versions })) socket.write(part);
        } else {
          this.onRequest(request);
        }
      }
    });
  }
}

function answerMetadata({ socket, correlationId, apiVersion }: Request, clusterId: string): void {
  const body = { brokers: [], clusterId, controllerId: 0, topics: [] };
  for (const part of METADATA_RESPONSE.encodeResponseFrame(correlationId, apiVersion, body)) socket.write(part);
}

const OPTIONS = { clientId: "connection-test", connectTimeoutMs: 2_000, requestTimeoutMs: 5_000, maxResponseBytes: 1 << 20 };
const METADATA_REQUEST = { topics: [], allowAutoTopicCreation: false, includeClusterAuthorizedOperations: false, includeTopicAuthorizedOperations: false };

const test = suite<{ brokers: ScriptedBroker[]; connections: BrokerConnection[] }>("kafka client: broker connection");

test.before.each((context) => {
  context.brokers = [];
  context.connections = [];
});

test.after.each(async ({ brokers, connections }) => {
  for (const connection of connections) connection.close();
  await Promise.all(brokers.map((broker) => broker.close()));
});

async function connectTo(
  context: { brokers: ScriptedBroker[]; connections: BrokerConnection[] },
  broker: ScriptedBroker,
  options: Partial<typeof OPTIONS> = {},
): Promise<{ address: string; connection: BrokerConnection }> {
  context.brokers.push(broker);
  const address = await broker.listen();
  const connection = await BrokerConnection.open(address, { ...OPTIONS, ...options });
  context.connections.push(connection);
  return { address, connection };
}

const settle = (promise: Promise<unknown>) => promise.then(() => null, (error: Error) => error);

test("pipelined requests are matched to their responses by correlation id, whatever order they come back in", async (context) => {
  const held: Request[] = [];
  const broker = new ScriptedBroker((request) => {
    held.push(request);
    if (held.length === 3) for (const [i, waiting] of held.reverse().entries()) answerMetadata(waiting, `answer-${i}`);
  });
  const { connection } = await connectTo(context, broker);
  const answers = await Promise.all([0, 1, 2].map(() => connection.request(METADATA, METADATA_REQUEST)));
  assert.equal(
    answers.map((answer) => answer.clusterId),
    ["answer-2", "answer-1", "answer-0"],
  );
});

test("the highest version both sides implement is used: the broker's top when it is older, the client's when it is newer", async (context) => {
  const broker = new ScriptedBroker((request) => answerMetadata(request, "c"), advertised({ 0: [0, 5], 3: [0, 13] }));
  const { connection } = await connectTo(context, broker);
  assert.is(connection.versionOf(PRODUCE), 5);
  assert.is(connection.versionOf(METADATA), 11);
});

test("a broker that shares no version of an API the client sends is refused on connecting, naming the API and both ranges", async (context) => {
  const newer = new ScriptedBroker(() => undefined, advertised({ 3: [12, 13] }));
  const older = new ScriptedBroker(() => undefined, advertised({ 8: [0, 1] }));
  const lacking = new ScriptedBroker(() => undefined, advertised({ 11: null }));
  context.brokers.push(newer, older, lacking);
  const refusals = await Promise.all([newer, older, lacking].map(async (broker) => {
    const address = await broker.listen();
    return { address, error: await settle(BrokerConnection.open(address, OPTIONS)) };
  }));
  for (const { error } of refusals) assert.instance(error, UnsupportedVersionError);
  const [a, b, c] = refusals;
  assert.is(a.error!.message, `broker ${a.address} and Sluice share no version of Metadata: Sluice sends 4-11, the broker accepts 12-13`);
  assert.is(b.error!.message, `broker ${b.address} and Sluice share no version of OffsetCommit: Sluice sends 2-9, the broker accepts 0-1`);
  assert.is(c.error!.message, `broker ${c.address} and Sluice share no version of JoinGroup: Sluice sends 2-5, the broker does not implement it`);
});

test("requests in flight when the broker drops the connection are rejected naming the broker, and so are later ones", async (context) => {
  let received = 0;
  const broker = new ScriptedBroker(({ socket }) => {
    if (++received === 2) socket.destroy();
  });
  const { address, connection } = await connectTo(context, broker);
  const failures = await Promise.all([0, 1].map(() => settle(connection.request(METADATA, METADATA_REQUEST))));
  for (const failure of failures) {
    assert.instance(failure, BrokerConnectionError);
    assert.ok(failure!.message.includes(address), failure!.message);
  }
  assert.not.ok(connection.isOpen);
  const later = await settle(connection.request(METADATA, METADATA_REQUEST));
  assert.instance(later, BrokerConnectionError);
});

test("a request left unanswered ends the connection after the request timeout", async (context) => {
  const broker = new ScriptedBroker(() => undefined);
  const { address, connection } = await connectTo(context, broker, { requestTimeoutMs: 100 });
  const failure = await settle(connection.request(METADATA, METADATA_REQUEST));
  assert.instance(failure, BrokerConnectionError);
  assert.match(failure!.message, `connection to broker ${address}: Metadata request unanswered after 100 ms`);
  assert.not.ok(connection.isOpen);
});

test("a refused connection rejects naming the broker", async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise((resolve) => server.close(resolve));
  const failure = await settle(BrokerConnection.open(address, OPTIONS));
  assert.instance(failure, BrokerConnectionError);
  assert.ok(failure!.message.startsWith(`connection to broker ${address}: `), failure!.message);
});

test.run();
