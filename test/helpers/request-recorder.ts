/**
 * A TCP proxy in front of each broker of a cluster that notes the header of every Kafka request passing through it
 * (API key, version, client id) and forwards the bytes both ways untouched. Clients reach it through a listener the
 * brokers advertise at the proxy's ports (`startKafkaCluster({ proxiedListener })`), so every connection a client
 * opens — to a bootstrap server or to a broker named by metadata — passes through it. PLAINTEXT only: it reads the
 * frames as they travel.
 */
import net from "node:net";
import { FrameSplitter } from "./kafka-proxy";

export interface RecordedRequest {
  apiKey: number;
  version: number;
  clientId: string | null;
}

export interface RequestRecorder {
  /** One per broker, in the order of `forward`'s index. */
  readonly ports: readonly number[];
  /** Where the proxy at `ports[index]` forwards to; set before clients connect. */
  forward(index: number, port: number): void;
  /** Every request seen so far, in the order they arrived. */
  readonly requests: readonly RecordedRequest[];
  close(): Promise<void>;
}

/** Reads the header of each request frame in the client's side of a Kafka connection. */
function requestReader(onRequest: (request: RecordedRequest) => void): (chunk: Buffer) => void {
  const frames = new FrameSplitter();
  return (chunk) => {
    for (const frame of frames.push(chunk)) {
      // After the size, header v1/v2: api key, api version, correlation id, then the client id (int16-prefixed, nullable).
      const clientIdLength = frame.readInt16BE(12);
      const clientId = clientIdLength < 0 ? null : frame.toString("utf8", 14, 14 + clientIdLength);
      onRequest({ apiKey: frame.readInt16BE(4), version: frame.readInt16BE(6), clientId });
    }
  };
}

export async function startRequestRecorder(brokers: number): Promise<RequestRecorder> {
  const requests: RecordedRequest[] = [];
  const targets: (number | undefined)[] = Array.from({ length: brokers }, () => undefined);
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  };
  const servers = await Promise.all(
    targets.map(
      (_, index) =>
        new Promise<net.Server>((resolve, reject) => {
          const server = net.createServer((client) => {
            track(client);
            const target = targets[index];
            if (target === undefined) {
              client.destroy();
              return;
            }
            const broker = net.connect(target, "127.0.0.1");
            track(broker);
            const read = requestReader((request) => requests.push(request));
            client.on("data", (chunk: Buffer) => {
              read(chunk);
              broker.write(chunk);
            });
            broker.on("data", (chunk: Buffer) => client.write(chunk));
            const closeBoth = () => {
              client.destroy();
              broker.destroy();
            };
            client.on("error", closeBoth).on("close", closeBoth);
            broker.on("error", closeBoth).on("close", closeBoth);
          });
          server.once("error", reject);
          server.listen(0, "127.0.0.1", () => resolve(server));
        }),
    ),
  );
  return {
    ports: servers.map((server) => (server.address() as net.AddressInfo).port),
    forward: (index, port) => void (targets[index] = port),
    requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
    },
  };
}
