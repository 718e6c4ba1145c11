/** The TCP (or TLS) side of the broker: accepts connections and hands each its own Connection (and SASL session). */
import { createServer, type AddressInfo, type Server, type Socket } from "node:net";
import { createServer as createTlsServer } from "node:tls";
import type { BrokerTls } from "./broker-tls";
import type { ComponentLogger } from "../../../kernel/logger";
import type { SaslServer } from "../sasl/sasl-server";
import { Connection } from "./connection";
import type { ConnectionAddress, RequestDispatcher } from "./request-dispatcher";

export interface BrokerServerOptions {
  listener: string;
  port: number;
  maxRequestBytes: number;
  tls?: BrokerTls;
  /** Connections authenticate with SASL first (SASL_PLAINTEXT, or SASL_SSL with `tls`). */
  sasl?: SaslServer;
  logger: ComponentLogger;
  /** Called with each response's frames once the socket is done with them. */
  written?: (frames: readonly Buffer[]) => void;
}

const WILDCARD_LISTENERS = new Set(["", "0.0.0.0", "::"]);

export class BrokerServer {
  private readonly server: Server;
  private readonly connections = new Set<Connection>();

  constructor(
    private readonly dispatcher: RequestDispatcher,
    private readonly options: BrokerServerOptions,
  ) {
    const tls = options.tls;
    this.server = tls
      ? createTlsServer({ cert: tls.cert, key: tls.key, ca: tls.ca, requestCert: tls.ca !== undefined, rejectUnauthorized: tls.ca !== undefined }, (socket) => this.accept(socket))
      : createServer((socket) => this.accept(socket));
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

  private accept(socket: Socket): void {
    const address = this.addressOf(socket);
    const connection = new Connection(socket, this.dispatcher, address, this.options.maxRequestBytes, this.options.logger, this.options.sasl?.session(address.clientHost), this.options.written);
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
    };
  }
}

function unmapIPv4(address: string): string {
  return address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
}
