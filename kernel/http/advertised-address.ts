/**
 * The `host:port` other instances reach this server at (an application's `application.server`): the configured
 * `server.advertised.listener` (a host, or host:port), else the listener — with the machine's hostname in place of a
 * wildcard address (`0.0.0.0`, `::`), which no other instance could connect to.
 */
import os from "node:os";
import { StartupError } from "../errors";

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"]);

export interface AdvertisedAddress {
  address: string;
  /** The listener was a wildcard and the machine's hostname stands in for it. */
  fromHostname: boolean;
}

const hostPort = (host: string, port: number) => (host.includes(":") && !host.startsWith("[") ? `[${host}]:${port}` : `${host}:${port}`);

export function advertisedAddress(configured: string | undefined, listening: { host: string; port: number }): AdvertisedAddress {
  if (configured !== undefined && configured !== "") return { address: parseAdvertised(configured, listening.port), fromHostname: false };
  if (WILDCARD_HOSTS.has(listening.host)) return { address: hostPort(os.hostname(), listening.port), fromHostname: true };
  return { address: hostPort(listening.host, listening.port), fromHostname: false };
}

/** `host`, `host:port`, `[v6]` or `[v6]:port`; the port defaults to the one the server listens on. */
function parseAdvertised(value: string, listeningPort: number): string {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:\s[\]]+)(?::(\d{1,5}))?$/.exec(value);
  const port = match?.[2] === undefined ? listeningPort : Number(match[2]);
  if (!match || port < 1 || port > 65_535 || WILDCARD_HOSTS.has(match[1])) {
    throw new StartupError(`Configuration key 'server.advertised.listener' must be a host or host:port other instances can reach, got ${JSON.stringify(value)}`);
  }
  return `${match[1]}:${port}`;
}
