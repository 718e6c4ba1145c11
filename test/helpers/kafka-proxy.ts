/**
 * A TCP proxy between one Sluice instance and the broker, which can stall its connections (nothing forwarded
 * for a while, sockets kept open), reset them (and refuse new ones for a while), or cut a connection mid-request:
 * the request reaches the broker, its answer never reaches the client.
 *
 * Kafka clients reconnect to the addresses the broker advertises, so the proxy keeps the instance behind it by
 * rewriting those addresses in Metadata, FindCoordinator and DescribeCluster answers: the broker's port after
 * its host is replaced with the proxy's. Both have the same length, so frames keep their sizes.
 */
import net from "node:net";

const REWRITTEN_APIS = new Set([3 /* Metadata */, 10 /* FindCoordinator */, 60 /* DescribeCluster */]);

/** Splits a byte stream into Kafka frames (a 4-byte size, then that many bytes). */
export class FrameSplitter {
  private pending: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const frames: Buffer[] = [];
    while (this.pending.length >= 4) {
      const size = this.pending.readInt32BE(0);
      if (this.pending.length < 4 + size) break;
      frames.push(this.pending.subarray(0, 4 + size));
      this.pending = this.pending.subarray(4 + size);
    }
    return frames;
  }
}

interface ProxiedConnection {
  client: net.Socket;
  upstream: net.Socket;
}

export class KafkaProxy {
  private readonly connections = new Set<ProxiedConnection>();
  private stalledUntil = 0;
  private refusingUntil = 0;
  /** By API key, how many of its next answers are dropped, their connections reset instead. */
  private readonly cutting = new Map<number, number>();
  /** By API key, how many of its next answers are rewritten, and how (the frame with its size prefix, the request's version). */
  private readonly rewriting = new Map<number, { count: number; rewrite: (frame: Buffer, version: number) => Buffer }>();
  /** Connections accepted, stalls and resets done: figures for the report. */
  readonly counts = { connections: 0, stalls: 0, resets: 0, cuts: 0 };

  private constructor(private readonly server: net.Server, private readonly host: string, private readonly targetPort: number) {}

  static async start(host: string, targetPort: number): Promise<KafkaProxy> {
    const server = net.createServer();
    const proxy = new KafkaProxy(server, host, targetPort);
    server.on("connection", (client) => proxy.accept(client));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, host, () => resolve());
    });
    return proxy;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  /** Holds every byte in both directions for `ms`; connections stay open. */
  stall(ms: number): void {
    this.counts.stalls++;
    this.stalledUntil = Date.now() + ms;
    for (const { client, upstream } of this.connections) {
      client.pause();
      upstream.pause();
    }
    setTimeout(() => this.resumeIfDue(), ms).unref();
  }

  /** Ends a stall at once. */
  release(): void {
    this.stalledUntil = 0;
    this.resumeIfDue();
  }

  /** Resets every open connection and refuses (resets) new ones for `ms`. */
  reset(ms: number): void {
    this.counts.resets++;
    this.refusingUntil = Date.now() + ms;
    for (const connection of this.connections) this.drop(connection);
  }

  /** The next `count` answers of API `apiKey` are not delivered: each one's connection is reset once the broker has answered. */
  cutAnswers(apiKey: number, count = 1): void {
    this.cutting.set(apiKey, count);
  }

  /** The next `count` answers of API `apiKey` reach the client as `rewrite` makes them, after their addresses are rewritten. */
  rewriteAnswers(apiKey: number, count: number, rewrite: (frame: Buffer, version: number) => Buffer): void {
    this.rewriting.set(apiKey, { count, rewrite });
  }

  async close(): Promise<void> {
    for (const connection of this.connections) this.drop(connection);
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private resumeIfDue(): void {
    if (Date.now() < this.stalledUntil) return;
    for (const { client, upstream } of this.connections) {
      client.resume();
      upstream.resume();
    }
  }

  private accept(client: net.Socket): void {
    if (Date.now() < this.refusingUntil) {
      resetOrDestroy(client);
      return;
    }
    this.counts.connections++;
    const upstream = net.connect(this.targetPort, this.host);
    const connection = { client, upstream };
    this.connections.add(connection);
    const apiOf = new Map<number, { apiKey: number; version: number }>();
    const requests = new FrameSplitter();
    const responses = new FrameSplitter();
    client.on("data", (chunk: Buffer) => {
      for (const frame of requests.push(chunk)) {
        if (frame.length >= 12) apiOf.set(frame.readInt32BE(8), { apiKey: frame.readInt16BE(4), version: frame.readInt16BE(6) });
        upstream.write(frame);
      }
    });
    upstream.on("data", (chunk: Buffer) => {
      for (const frame of responses.push(chunk)) {
        const correlationId = frame.readInt32BE(4);
        const request = apiOf.get(correlationId);
        const api = request?.apiKey;
        apiOf.delete(correlationId);
        const cuts = api === undefined ? 0 : (this.cutting.get(api) ?? 0);
        if (cuts > 0) {
          this.cutting.set(api!, cuts - 1);
          this.counts.cuts++;
          this.drop(connection);
          return;
        }
        const addressed = api !== undefined && REWRITTEN_APIS.has(api) ? this.rewriteAddresses(frame) : frame;
        const rewriting = api === undefined ? undefined : this.rewriting.get(api);
        if (rewriting === undefined || rewriting.count === 0) client.write(addressed);
        else {
          rewriting.count--;
          client.write(rewriting.rewrite(addressed, request!.version));
        }
      }
    });
    if (Date.now() < this.stalledUntil) {
      client.pause();
      upstream.pause();
    }
    const end = () => this.drop(connection);
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
  }

  private drop(connection: ProxiedConnection): void {
    if (!this.connections.delete(connection)) return;
    if (!connection.client.destroyed) resetOrDestroy(connection.client);
    if (!connection.upstream.destroyed) connection.upstream.destroy();
  }

  /** Every "<host>" followed by the broker's port as an int32 gets the proxy's port instead. */
  private rewriteAddresses(frame: Buffer): Buffer {
    const pattern = Buffer.alloc(this.host.length + 4);
    pattern.write(this.host, 0, "latin1");
    pattern.writeInt32BE(this.targetPort, this.host.length);
    let at = frame.indexOf(pattern);
    if (at === -1) return frame;
    const copy = Buffer.from(frame);
    while (at !== -1) {
      copy.writeInt32BE(this.port, at + this.host.length);
      at = copy.indexOf(pattern, at + pattern.length);
    }
    return copy;
  }
}

/**
 * Resets a connection (RST), or closes it when its writing side is already shutting down (the peer ended it): Node 20
 * cannot reset such a socket, and its resetAndDestroy then leaves the handle open, destroyed only in name, which made
 * the test process spin forever in its exit clean-up.
 */
function resetOrDestroy(socket: net.Socket): void {
  if (socket.writableEnded) socket.destroy();
  else socket.resetAndDestroy();
}
