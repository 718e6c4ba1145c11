/** The text of a server-sent event stream (API.md §3): one string per frame, built once and shared by subscribers. */
import type { EventRecord } from "../../kernel/contracts/streams/runtime";

/** How long a client waits before reconnecting. */
export const RETRY_MS = 3000;

export const RETRY_FRAME = `retry: ${RETRY_MS}\n\n`;

export const KEEP_ALIVE_FRAME = ": keep-alive\n\n";

export function eventFrame(id: number, record: EventRecord): string {
  const data = JSON.stringify({ key: record.key ?? null, value: record.value ?? null, timestamp: record.timestamp });
  return `id: ${id}\nevent: ${record.type}\ndata: ${data}\n\n`;
}
