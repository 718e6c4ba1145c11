/**
 * The TCP (or TLS) side of the broker: accepts connections within the connection limits (counted before any TLS
 * handshake) and hands each its own Connection (and SASL session).
 */
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import type { BrokerTls } from "./broker-tls";
import type { SaslServer } from "../sasl/sasl-server";
import { certificatePrincipal } from "./certificate-principal";
import { Connection, type ConnectionSettings } from "./connection";
import { type ConnectionLimits, ConnectionQuotas } from "./connection-quotas";
import type { ConnectionAddress, RequestDispatcher } from "./request-dispatcher";

export interface BrokerServerOptions extends ConnectionLimits, Omit<ConnectionSettings, "maxIdleMs" | "maxUnauthenticatedBytes"> {
  listener: string;
  port: number;
  tls?: BrokerTls;
  /** Connections authenticate with SASL first (SASL_PLAINTEXT, or SASL_SSL with `tls`). */
  sasl?: SaslServer;
  /** Larger frames close a SASL connection that has yet to authenticate. */
  saslMaxReceiveBytes: number;
  /** Connections without traffic for this long are closed; 0: never. */
  connectionsMaxIdleMs: number;
}

const WILDCARD_LISTENERS = new Set(["", "0.0.0.0", "::"]);

export class BrokerServer {
  private readonly server: Server;
  private readonly connections = new Set<Connection>();
  private readonly quotas: ConnectionQuotas;
  /** A limit was reached and logged: the next time is logged once it is no longer reached. */
  private refusing = false;

  constructor(
    private readonly dispatcher: RequestDispatcher,
    private readonly options: BrokerServerOptions,
  ) {
    this.quotas = new ConnectionQuotas(options);
    const tls = options.tls;
    this.server = tls
      ? createTlsServer({ cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: tls.ca !== undefined, rejectUnauthorized: tls.ca !== undefined }, (socket) => this.accept(socket))
      : createServer();
    // Every TCP connection, TLS or not, is counted (or refused) as it arrives; a plain one is served at once.
    this.server.on("connection", (socket: Socket) => {
      if (this.admit(socket) && !tls) this.accept(socket);
    });
    // A client that fails the TLS handshake (an untrusted or missing certificate) is only logged.
    this.server.on("tlsClientError", (error) => options.logger.debug("TLS handshake failed", { error: error.message }));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.server.once("error", reject);
      this.server.listen(this.options.port, this.options.listener, () => {
        this.server.off("error", reject);
        resolve();
      });
    });
    this.server.on("error", (error) => this.options.logger.error("broker server error", { error }));
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const connection of this.connections) connection.close();
    this.connections.clear();
    await closed;
  }

  private admit(socket: Socket): boolean {
    const ip = unmapIPv4(socket.remoteAddress ?? "");
    const refusal = this.quotas.admit(ip);
    if (refusal !== undefined) {
      if (!this.refusing) this.options.logger.warn("refusing connections over the limit", { client: ip, reason: refusal });
      this.refusing = true;
      socket.destroy();
      return false;
    }
    this.refusing = false;
    socket.once("close", () => this.quotas.release(ip));
    return true;
  }

  private accept(socket: Socket): void {
    const address = this.addressOf(socket);
    const { maxRequestBytes, saslMaxReceiveBytes, connectionsMaxIdleMs, logger, written } = this.options;
    const settings: ConnectionSettings = { maxRequestBytes, maxUnauthenticatedBytes: saslMaxReceiveBytes, maxIdleMs: connectionsMaxIdleMs, logger, written };
    const connection = new Connection(socket, this.dispatcher, address, settings, this.options.sasl?.session(address.clientHost));
    this.connections.add(connection);
    socket.on("close", () => this.connections.delete(connection));
  }

  /** Behind a wildcard listener, clients are told the address they connected to. */
  private addressOf(socket: Socket): ConnectionAddress {
    const listener = this.options.listener;
    return {
      clientHost: `/${unmapIPv4(socket.remoteAddress ?? "")}`,
      advertisedHost: WILDCARD_LISTENERS.has(listener) ? unmapIPv4(socket.localAddress ?? "127.0.0.1") : listener,
      advertisedPort: this.port,
      principal: certificatePrincipal(socket),
    };
  }
}

function unmapIPv4(address: string): string {
  return address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
}
