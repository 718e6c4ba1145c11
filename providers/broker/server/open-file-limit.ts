/**
 * The default of broker.max.connections: half the process's open-file limit, so that a flood of connections leaves
 * descriptors to the logs, the state stores and the HTTP server of the same process. Kafka's own default is
 * unbounded; so is this one where the limit cannot be read (outside Linux).
 */
import { readFileSync } from "node:fs";

/** The soft limit on open files (RLIMIT_NOFILE), or null when unknown or unlimited. */
export function openFileLimit(): number | null {
  let text: string;
  try {
    text = readFileSync("/proc/self/limits", "utf8");
  } catch {
    return null;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  return soft === undefined || !/^\d+$/.test(soft) ? null : Number(soft);
}

export function defaultMaxConnections(): number | null {
  const limit = openFileLimit();
  return limit === null ? null : Math.max(1, Math.floor(limit / 2));
}
