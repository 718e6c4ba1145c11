/**
 * One open connection per broker address, opened on first use and opened again after it was lost, or when its SASL
 * session nears its end (the retired one closes at the end of its session, or with the pool).
 */
import { BrokerConnection, type BrokerConnectionOptions } from "./broker-connection";
import { BrokerConnectionError } from "./kafka-client-errors";

interface Entry {
  connection: BrokerConnection | null;
  /** The attempt to connect, while it lasts. */
  opening: Promise<BrokerConnection> | null;
}

export class ConnectionPool {
  private readonly entries = new Map<string, Entry>();
  private readonly retired = new Set<BrokerConnection>();
  private closed = false;

  constructor(private readonly options: BrokerConnectionOptions) {}

  /** The open connection to `address`, connecting if there is none; concurrent callers share one attempt. */
  get(address: string): Promise<BrokerConnection> {
    if (this.closed) return Promise.reject(new BrokerConnectionError(address, "the client is closed"));
    const entry = this.entries.get(address);
    if (entry?.connection?.isUsable) return Promise.resolve(entry.connection);
    if (entry?.opening) return entry.opening;
    if (entry?.connection?.isOpen) this.retire(entry.connection);
    const opened: Entry = { connection: null, opening: null };
    opened.opening = BrokerConnection.open(address, this.options).then(
      (connection) => {
        opened.connection = connection;
        opened.opening = null;
        if (this.closed) connection.close();
        return connection;
      },
      (error: unknown) => {
        if (this.entries.get(address) === opened) this.entries.delete(address);
        throw error;
      },
    );
    this.entries.set(address, opened);
    return opened.opening;
  }

  private retire(connection: BrokerConnection): void {
    for (const old of this.retired) if (!old.isOpen) this.retired.delete(old);
    this.retired.add(connection);
  }

  /** Addresses with an open connection. */
  openAddresses(): string[] {
    return [...this.entries].filter(([, entry]) => entry.connection?.isOpen).map(([address]) => address);
  }

  close(): void {
    this.closed = true;
    this.dropConnections();
  }

  /** Closes every connection (the requests in flight on them fail); the next `get` opens a new one. */
  dropConnections(): void {
    for (const connection of this.retired) connection.close();
    this.retired.clear();
    for (const entry of this.entries.values()) {
      entry.connection?.close();
      entry.opening?.then((connection) => connection.close(), () => undefined);
    }
    this.entries.clear();
  }
}
