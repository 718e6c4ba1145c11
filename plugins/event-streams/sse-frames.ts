/** The text of a server-sent event stream (docs/api.md#event-streams): one string per frame, built once and shared by subscribers. */
/** How long a client waits before reconnecting. */
export const RETRY_MS = 3000;

export const RETRY_FRAME = `retry: ${RETRY_MS}\n\n`;

export const KEEP_ALIVE_FRAME = ": keep-alive\n\n";

/** `data` is the record's JSON (key, value, timestamp), already rendered by the serializer modules. */
export function eventFrame(id: number, type: string, data: string): string {
  return `id: ${id}\nevent: ${type}\ndata: ${data}\n\n`;
}
