import { connect, createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { RegisteredHandler } from "../../../../providers/broker/handlers/api-handler";
import { ApiCodec } from "../../../../providers/kafka-protocol/api-codec";
import { ApiVersions } from "../../../../providers/kafka-protocol/messages/api-versions";
import { silentLogger } from "../../../../kernel/logger";
import { Connection } from "../../../../providers/broker/server/connection";
import { RequestDispatcher } from "../../../../providers/broker/server/request-dispatcher";
import { eventually } from "../../../helpers/eventually";

const MiB = 1024 * 1024;
const ADDRESS = { clientHost: "/127.0.0.1", advertisedHost: "127.0.0.1", advertisedPort: 0, principal: "User:ANONYMOUS" };
const SETTINGS = { maxRequestBytes: MiB, maxUnauthenticatedBytes: MiB, maxIdleMs: 0, logger: silentLogger };

interface Held {
  correlationId: number;
  release(): void;
}

/** A server whose every request waits until the test releases it, then answers with just its correlation id. */
function holdingServer(held: Held[]): { server: Server; accepted: Promise<Socket> } {
  const handler: RegisteredHandler = {
    api: new ApiCodec(ApiVersions) as unknown as ApiCodec,
    run: (_body, { correlationId }) =>
      new Promise((resolve) => {
        const frame = Buffer.alloc(8);
        frame.writeInt32BE(4);
        frame.writeInt32BE(correlationId, 4);
        held.push({ correlationId, release: () => resolve([frame]) });
      }),
  };
  const dispatcher = new RequestDispatcher(new Map([[ApiVersions.apiKey, handler]]));
  let accept: (socket: Socket) => void = () => undefined;
  const accepted = new Promise<Socket>((resolve) => (accept = resolve));
  const server = createServer((socket) => {
    new Connection(socket, dispatcher, ADDRESS, { ...SETTINGS, maxRequestBytes: 2 * MiB });
    accept(socket);
  });
  return { server, accepted };
}

/** An ApiVersions v0 request padded to `size` bytes after its size prefix. */
function paddedRequest(correlationId: number, size: number): Buffer {
  const frame = Buffer.alloc(4 + size);
  frame.writeInt32BE(size);
  frame.writeInt16BE(ApiVersions.apiKey, 4);
  frame.writeInt16BE(0, 6);
  frame.writeInt32BE(correlationId, 8);
  frame.writeInt16BE(-1, 12);
  return frame;
}

const test = suite("broker connection");

test("stops reading while 32 MiB of requests await their responses, and serves the rest once they are answered", async () => {
  const held: Held[] = [];
  const { server, accepted } = holdingServer(held);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const client = connect((server.address() as AddressInfo).port, "127.0.0.1");
  const answered: number[] = [];
  let serverSide: Socket | undefined;
  let pending = Buffer.alloc(0);
  client.on("data", (chunk: Buffer) => {
    pending = Buffer.concat([pending, chunk]);
    while (pending.length >= 8) {
      answered.push(pending.readInt32BE(4));
      pending = pending.subarray(8);
    }
  });
  try {
    for (let id = 1; id <= 40; id++) client.write(paddedRequest(id, MiB));
    serverSide = await accepted;
    await eventually(() => held.length >= 32, { what: "32 MiB of requests to be held" });
    assert.ok(serverSide.isPaused(), "the connection stopped reading");
    assert.is(held.length, 32);
    assert.ok(serverSide.bytesRead < 33 * MiB, `read ${serverSide.bytesRead} bytes`);

    for (const request of held.splice(0)) request.release();
    await eventually(
      () => {
        for (const request of held.splice(0)) request.release();
        return answered.length === 40;
      },
      { what: "all 40 responses" },
    );
    assert.equal(answered, Array.from({ length: 40 }, (_, i) => i + 1));
  } finally {
    client.destroy();
    serverSide?.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("hands a response's frames to `written` only once the socket has sent them all", async () => {
  const response = [Buffer.alloc(8), Buffer.alloc(32 * MiB, 7)];
  response[0].writeInt32BE(4 + response[1].length);
  const handler: RegisteredHandler = {
    api: new ApiCodec(ApiVersions) as unknown as ApiCodec,
    run: async (_body, { correlationId }) => {
      response[0].writeInt32BE(correlationId, 4);
      return response;
    },
  };
  const dispatcher = new RequestDispatcher(new Map([[ApiVersions.apiKey, handler]]));
  const written: (readonly Buffer[])[] = [];
  let serverSide: Socket | undefined;
  const server = createServer((socket) => {
    serverSide = socket;
    new Connection(socket, dispatcher, ADDRESS, { ...SETTINGS, written: (frames) => written.push(frames) });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // Not reading yet: the response backs up in the kernel's buffers and the broker's.
  const client = connect({ port: (server.address() as AddressInfo).port, host: "127.0.0.1" });
  client.pause();
  try {
    client.write(paddedRequest(1, 64));
    await eventually(() => serverSide !== undefined && serverSide.writableLength > 0, { what: "the response to back up" });
    assert.is(written.length, 0);
    let received = 0;
    client.on("data", (chunk: Buffer) => (received += chunk.length));
    client.resume();
    await eventually(() => received === 4 + 4 + 32 * MiB && written.length === 1, { what: "the whole response and its written call" });
    assert.is(written[0], response);
  } finally {
    client.destroy();
    serverSide?.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
});

test.run();
