/**
 * One TCP connection to one broker: size-prefixed request frames out, responses matched to their requests by
 * correlation id, any number of requests in flight. When the socket closes or fails, every request still in
 * flight is rejected with a BrokerConnectionError naming the broker; the connection is not reopened (the
 * pool opens a new one). Plain TCP, or TLS when the options carry TLS settings (`security.protocol=SSL`). On opening
 * it learns the broker's API versions, and refuses a broker that shares no version with the client of an API the
 * client sends (client-apis.ts).
 */
import { connect, type Socket } from "node:net";
import { connect as connectTls, type ConnectionOptions as TlsOptions } from "node:tls";
import { ApiCodec, type ApiSpec, ByteReader, type ChunkedBytes, type DecodedResponseOf, FrameSplitter, type RequestBodyOf, type VersionRange } from "../kafka-protocol";
import { API_VERSIONS, CLIENT_APIS, type NegotiatedApi } from "./client-apis";
import { BrokerConnectionError, UnsupportedVersionError } from "./kafka-client-errors";

export interface BrokerConnectionOptions {
  clientId: string;
  /** TLS settings (CA, client certificate and key, hostname check): the connection is TLS when they are given. */
  tls?: TlsOptions;
  connectTimeoutMs: number;
  /** A request unanswered this long ends the connection (and so fails every request in flight on it). */
  requestTimeoutMs: number;
  /** Larger response frames end the connection. */
  maxResponseBytes: number;
}

interface InFlight {
  decode(reader: ByteReader): unknown;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** `host:port`, with the port after the last colon. */
export function parseAddress(address: string): { host: string; port: number } {
  const colon = address.lastIndexOf(":");
  const port = Number(address.slice(colon + 1));
  if (colon <= 0 || !Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`broker address '${address}' is not host:port`);
  return { host: address.slice(0, colon).replace(/^\[(.*)\]$/, "$1"), port };
}

export class BrokerConnection {
  private readonly inFlight = new Map<number, InFlight>();
  private readonly frames: FrameSplitter;
  private nextCorrelationId = 0;
  private closedBy: BrokerConnectionError | null = null;
  /** The versions of each API key the broker implements, from its ApiVersions answer. */
  private brokerVersions = new Map<number, VersionRange>();

  private constructor(
    readonly address: string,
    private readonly socket: Socket,
    private readonly options: BrokerConnectionOptions,
  ) {
    this.frames = new FrameSplitter(options.maxResponseBytes);
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    socket.on("error", (error) => this.end(error.message));
    socket.on("close", () => this.end("closed by the broker"));
  }

  /**
   * Connects and learns which API versions the broker implements. Rejects with UnsupportedVersionError, naming
   * the first API the client sends in no version the broker accepts.
   */
  static async open(address: string, options: BrokerConnectionOptions): Promise<BrokerConnection> {
    const socket = await connectSocket(address, options.connectTimeoutMs, options.tls);
    const connection = new BrokerConnection(address, socket, options);
    try {
      // Version 0 is the one every broker answers; it lists all we need.
      const answer = await connection.request(API_VERSIONS, {}, 0);
      if (answer.errorCode !== 0) throw new BrokerConnectionError(address, `ApiVersions answered error code ${answer.errorCode}`);
      connection.brokerVersions = new Map(answer.apiKeys.map(({ apiKey, minVersion, maxVersion }) => [apiKey, { min: minVersion, max: maxVersion }]));
      for (const api of CLIENT_APIS) connection.versionOf(api);
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  get isOpen(): boolean {
    return this.closedBy === null;
  }

  /** The highest version of `api` both this client and the broker implement; UnsupportedVersionError when none is. */
  versionOf(api: NegotiatedApi): number {
    const broker = this.brokerVersions.get(api.apiKey);
    const version = broker === undefined ? -1 : Math.min(broker.max, api.versions.max);
    if (broker === undefined || version < Math.max(broker.min, api.versions.min)) throw new UnsupportedVersionError(this.address, api.spec.name, api.versions, broker ?? null);
    return version;
  }

  request<A extends ApiSpec>(api: ApiCodec<A>, body: RequestBodyOf<A>, version = this.versionOf(api)): Promise<DecodedResponseOf<A>> {
    if (this.closedBy !== null) return Promise.reject(this.closedBy);
    const correlationId = this.nextCorrelationId;
    this.nextCorrelationId = (this.nextCorrelationId + 1) | 0;
    const frame = api.encodeRequestFrame(correlationId, version, this.options.clientId, body);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.end(`${api.spec.name} request unanswered after ${this.options.requestTimeoutMs} ms`),
        this.options.requestTimeoutMs,
      );
      this.inFlight.set(correlationId, {
        decode: (reader) => api.decodeResponse(reader, version),
        resolve: resolve as (value: unknown) => void,
        reject,
        timer,
      });
      this.socket.cork();
      for (const chunk of frame) this.socket.write(chunk);
      this.socket.uncork();
    });
  }

  /** Ends the connection; requests in flight are rejected. */
  close(): void {
    this.end("closed by the client");
  }

  private receive(chunk: Buffer): void {
    let frames: ChunkedBytes[];
    try {
      frames = this.frames.push(chunk);
    } catch (error) {
      this.end((error as Error).message);
      return;
    }
    for (const frame of frames) {
      if (this.closedBy !== null) return;
      this.answer(frame);
    }
  }

  private answer(frame: ChunkedBytes): void {
    const reader = new ByteReader(frame);
    let request: InFlight | undefined;
    try {
      const correlationId = reader.int32();
      request = this.inFlight.get(correlationId);
      if (request === undefined) throw new Error(`response to correlation id ${correlationId}, which no request in flight has`);
      this.inFlight.delete(correlationId);
      clearTimeout(request.timer);
      request.resolve(request.decode(reader));
    } catch (error) {
      const reason = `unreadable response: ${(error as Error).message}`;
      request?.reject(new BrokerConnectionError(this.address, reason));
      this.end(reason);
    }
  }

  private end(reason: string): void {
    if (this.closedBy !== null) return;
    this.closedBy = new BrokerConnectionError(this.address, reason);
    this.socket.destroy();
    for (const request of this.inFlight.values()) {
      clearTimeout(request.timer);
      request.reject(this.closedBy);
    }
    this.inFlight.clear();
  }
}

function connectSocket(address: string, timeoutMs: number, tls: TlsOptions | undefined): Promise<Socket> {
  const { host, port } = parseAddress(address);
  return new Promise((resolve, reject) => {
    // A TLS socket is ready once its handshake is done (the certificates checked), not at the TCP connection.
    const socket = tls ? connectTls({ ...tls, socket: connect({ host, port, noDelay: true }), host, servername: isIpAddress(host) ? undefined : host }) : connect({ host, port, noDelay: true });
    const fail = (reason: string) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new BrokerConnectionError(address, reason));
    };
    const timer = setTimeout(() => fail(`not connected after ${timeoutMs} ms`), timeoutMs);
    socket.once("error", (error) => fail(error.message));
    socket.once(tls ? "secureConnect" : "connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      resolve(socket);
    });
  });
}

const isIpAddress = (host: string) => /^[\d.]+$/.test(host) || host.includes(":");
