/**
 * The broker's connection limits, as Kafka's max.connections and max.connections.per.ip: a connection past either is
 * closed as soon as it is accepted. (Kafka's acceptor stops accepting at the broker-wide limit instead; Node.js
 * cannot pause accepting, so such connections are closed too — they hold a descriptor only for that moment.)
 */
export interface ConnectionLimits {
  /** null: unbounded. */
  readonly maxConnections: number | null;
  readonly maxConnectionsPerIp: number | null;
}

export class ConnectionQuotas {
  private total = 0;
  private readonly byIp = new Map<string, number>();

  constructor(private readonly limits: ConnectionLimits) {}

  /** Counts the connection from `ip` in and returns undefined, or returns why it is refused (and counts nothing). */
  admit(ip: string): string | undefined {
    const { maxConnections, maxConnectionsPerIp } = this.limits;
    if (maxConnections !== null && this.total >= maxConnections) return `the broker has ${this.total} connections (broker.max.connections=${maxConnections})`;
    const fromIp = this.byIp.get(ip) ?? 0;
    if (maxConnectionsPerIp !== null && fromIp >= maxConnectionsPerIp) return `${ip} has ${fromIp} connections (broker.max.connections.per.ip=${maxConnectionsPerIp})`;
    this.total++;
    this.byIp.set(ip, fromIp + 1);
    return undefined;
  }

  release(ip: string): void {
    this.total--;
    const left = (this.byIp.get(ip) ?? 1) - 1;
    if (left > 0) this.byIp.set(ip, left);
    else this.byIp.delete(ip);
  }
}
