import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { ApiCodec } from "../../../providers/kafka-protocol/api-codec";
import { ByteReader } from "../../../providers/kafka-protocol/byte-reader";
import { ApiVersions } from "../../../providers/kafka-protocol/messages/api-versions";
import { Metadata } from "../../../providers/kafka-protocol/messages/metadata";
import { Produce } from "../../../providers/kafka-protocol/messages/produce";
import { FrameSplitter } from "../../../providers/kafka-protocol/frame-splitter";
import { BrokerConnection } from "../../../providers/kafka-client/broker-connection";
import { BrokerConnectionError } from "../../../providers/kafka-client";

const API_VERSIONS = new ApiCodec(ApiVersions);
const METADATA = new ApiCodec(Metadata);
const PRODUCE = new ApiCodec(Produce);

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
    private readonly versions = [
      { apiKey: 0, minVersion: 3, maxVersion: 8 },
      { apiKey: 3, minVersion: 0, maxVersion: 8 },
      { apiKey: 18, minVersion: 0, maxVersion: 2 },
    ],
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
  for (const part of METADATA.encodeResponseFrame(correlationId, apiVersion, body)) socket.write(part);
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

test("the highest version both sides implement is used, and an API without one is refused naming both ranges", async (context) => {
  const seen: Request[] = [];
  const broker = new ScriptedBroker(
    (request) => {
      seen.push(request);
      answerMetadata(request, "c");
    },
    [
      { apiKey: 0, minVersion: 3, maxVersion: 5 },
      { apiKey: 3, minVersion: 9, maxVersion: 12 },
      { apiKey: 18, minVersion: 0, maxVersion: 3 },
    ],
  );
  const { connection } = await connectTo(context, broker);
  assert.is(connection.versionOf(PRODUCE), 5);
  assert.throws(() => connection.versionOf(METADATA), /no common version of Metadata \(client 0-8, broker 9-12\)/);
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
