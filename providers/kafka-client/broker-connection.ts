/**
 * One TCP connection to one broker: size-prefixed request frames out, responses matched to their requests by
 * correlation id, any number of requests in flight. When the socket closes or fails, every request still in
 * flight is rejected with a BrokerConnectionError naming the broker; the connection is not reopened (the
 * pool opens a new one). Plain TCP, or TLS when the options carry TLS settings (`security.protocol=SSL`). On opening
 * it learns the broker's API versions, refuses a broker that shares no version with the client of an API the
 * client sends (client-apis.ts), and authenticates with SASL when the options carry credentials (SASL_*). A
 * certificate that fails the TLS handshake, or credentials the broker refuses, are an AuthenticationError. When
 * the broker gives the SASL session a lifetime, the connection retires before it ends (the pool opens a new one,
 * which authenticates again) and closes at its end.
 */
import { connect, type Socket } from "node:net";
import { connect as connectTls, type ConnectionOptions as TlsOptions } from "node:tls";
import { ApiCodec, type ApiSpec, ByteReader, type ChunkedBytes, type DecodedResponseOf, FrameSplitter, type RequestBodyOf, type VersionRange } from "../kafka-protocol";
import { API_VERSIONS, CLIENT_APIS, SASL_APIS, SASL_AUTHENTICATE, SASL_HANDSHAKE, type NegotiatedApi } from "./client-apis";
import { AuthenticationError, BrokerConnectionError, UnsupportedVersionError } from "./kafka-client-errors";
import { authenticate, type SaslSettings } from "./sasl-authentication";

/** How a client reaches the brokers and proves who it is: TLS (security.protocol SSL, SASL_SSL) and SASL (SASL_*). */
export interface BrokerSecurity {
  /** TLS settings (CA, client certificate and key, hostname check): the connection is TLS when they are given. */
  tls?: TlsOptions;
  /** SASL credentials: the connection authenticates after ApiVersions when they are given. */
  sasl?: SaslSettings;
}

export interface BrokerConnectionOptions extends BrokerSecurity {
  clientId: string;
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
  private closedBy: Error | null = null;
  /** Past most of its SASL session: the pool hands it out no more. */
  private retired = false;
  private readonly sessionTimers: NodeJS.Timeout[] = [];
  /** The versions of each API key the broker implements, from its ApiVersions answer. */
  private brokerVersions = new Map<number, VersionRange>();

  private constructor(
    readonly address: string,
    private readonly socket: Socket,
    private readonly options: BrokerConnectionOptions,
  ) {
    this.frames = new FrameSplitter(options.maxResponseBytes);
    socket.on("data", (chunk: Buffer) => this.receive(chunk));
    // With TLS 1.3 the broker refuses a client certificate after the handshake, so the refusal comes here.
    socket.on("error", (error) => this.fail(tlsRefusal(address, error) ?? new BrokerConnectionError(address, error.message)));
    socket.on("close", () => this.end("closed by the broker"));
  }

  /**
   * Connects, learns which API versions the broker implements, and authenticates. Rejects with
   * UnsupportedVersionError, naming the first API the client sends in no version the broker accepts, and with
   * AuthenticationError when TLS or SASL refuses this client.
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
      if (options.sasl) await connection.authenticateWith(options.sasl);
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  get isOpen(): boolean {
    return this.closedBy === null;
  }

  /** Open, and not near the end of its SASL session. */
  get isUsable(): boolean {
    return this.closedBy === null && !this.retired;
  }

  /** The highest version of `api` both this client and the broker implement; UnsupportedVersionError when none is. */
  versionOf(api: NegotiatedApi): number {
    const broker = this.brokerVersions.get(api.apiKey);
    const version = broker === undefined ? -1 : Math.min(broker.max, api.versions.max);
    if (broker === undefined || version < Math.max(broker.min, api.versions.min)) throw new UnsupportedVersionError(this.address, api.spec.name, api.versions, broker ?? null);
    return version;
  }

  /**
   * The version this client sends of each API to this broker, by name (SASL's too on a SASL connection); ApiVersions,
   * always sent at version 0 before the broker's versions are known, is not among them.
   */
  negotiatedVersions(): Record<string, number> {
    const apis = [...CLIENT_APIS, ...(this.options.sasl ? SASL_APIS : [])].filter((api) => api !== API_VERSIONS);
    return Object.fromEntries(apis.map((api) => [api.spec.name, this.versionOf(api)]));
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

  private async authenticateWith(sasl: SaslSettings): Promise<void> {
    for (const api of SASL_APIS) this.versionOf(api);
    const lifetimeMs = await authenticate(
      {
        address: this.address,
        handshake: (mechanism) => this.request(SASL_HANDSHAKE, { mechanism }),
        authenticate: (authBytes) => this.request(SASL_AUTHENTICATE, { authBytes }),
      },
      sasl,
    );
    if (lifetimeMs > 0) {
      // Requests already sent at retirement have the rest of the session to be answered.
      this.sessionTimers.push(setTimeout(() => (this.retired = true), lifetimeMs * RETIRE_AT_SESSION_SHARE).unref());
      this.sessionTimers.push(setTimeout(() => this.end("its SASL session ended"), lifetimeMs).unref());
    }
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
    this.fail(new BrokerConnectionError(this.address, reason));
  }

  /** Closes the connection, rejecting the requests in flight with `error`. */
  private fail(error: Error): void {
    if (this.closedBy !== null) return;
    this.closedBy = error;
    for (const timer of this.sessionTimers) clearTimeout(timer);
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
    socket.once("error", (error) => {
      const refusal = tlsRefusal(address, error);
      if (!refusal) return fail(error.message);
      clearTimeout(timer);
      socket.destroy();
      reject(refusal);
    });
    socket.once(tls ? "secureConnect" : "connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      resolve(socket);
    });
  });
}

const isIpAddress = (host: string) => /^[\d.]+$/.test(host) || host.includes(":");

/** The share of a SASL session after which a connection is handed out no more. */
const RETIRE_AT_SESSION_SHARE = 0.85;

/**
 * A TLS failure that connecting again cannot cure, as an AuthenticationError: OpenSSL's errors (alerts such as a
 * refused client certificate, a protocol mismatch), certificate checks (X509 codes such as SELF_SIGNED_CERT_IN_CHAIN),
 * a name the certificate does not cover. System errors (ECONNRESET and the like) are not.
 */
function tlsRefusal(address: string, error: NodeJS.ErrnoException & { reason?: string }): AuthenticationError | undefined {
  const code = error.code ?? "";
  const refused = code.startsWith("ERR_SSL_") || code === "ERR_TLS_CERT_ALTNAME_INVALID" || (/^[A-Z0-9_]+$/.test(code) && !code.startsWith("ERR_") && !/^E[A-Z]+$/.test(code));
  // OpenSSL's own errors carry a short `reason` beside a message of several lines.
  return refused ? new AuthenticationError(address, `TLS handshake: ${error.reason ?? error.message} (${code})`) : undefined;
}
