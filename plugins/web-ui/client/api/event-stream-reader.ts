/**
 * Server-sent events read with fetch() instead of EventSource, which cannot send an `Authorization` header:
 * the credentials stay in a header, never in the URL. Parses the stream as the HTML standard does (fields,
 * comments, `retry`), and reconnects after the server's retry delay with `Last-Event-ID`, as EventSource would.
 */
import type { ApiClient, ApiError } from "./api-client";

export interface ServerSentEvent {
  id: string;
  event: string;
  data: string;
}

export interface EventStreamHandlers {
  onEvent(event: ServerSentEvent): void;
  /** Connected (again); `false` while waiting to reconnect. */
  onConnection(connected: boolean): void;
  /** A refusal (404, 401, 403…): no reconnection follows. */
  onFailure(error: ApiError): void;
}

export function readEventStream(api: ApiClient, url: string, handlers: EventStreamHandlers): { close(): void } {
  const aborted = new AbortController();
  let lastEventId = "";
  let retryMs = 3000;
  let reconnect: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    const headers = api.headers("text/event-stream");
    if (lastEventId !== "") headers["Last-Event-ID"] = lastEventId;
    try {
      const response = await fetch(url, { headers, signal: aborted.signal, cache: "no-store" });
      if (!response.ok || !response.body) {
        handlers.onFailure(api.failure(response, await response.text()));
        return;
      }
      handlers.onConnection(true);
      await parse(response.body, {
        event: (event) => {
          if (event.id !== "") lastEventId = event.id;
          handlers.onEvent(event);
        },
        retry: (ms) => (retryMs = ms),
      });
    } catch {
      // A dropped connection: reconnect below, unless the reader was closed.
    }
    if (aborted.signal.aborted) return;
    handlers.onConnection(false);
    reconnect = setTimeout(connect, retryMs);
  };
  void connect();
  return {
    close: () => {
      clearTimeout(reconnect);
      aborted.abort();
    },
  };
}

async function parse(body: ReadableStream<Uint8Array>, on: { event(event: ServerSentEvent): void; retry(ms: number): void }): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let pending = { id: "", event: "", data: [] as string[] };
  // A CRLF split between two chunks is one line end, not two.
  let endedWithCr = false;
  for (;;) {
    const { value: bytes, done } = await reader.read();
    if (done) return;
    const value = decoder.decode(bytes, { stream: true });
    buffered += endedWithCr && value.startsWith("\n") ? value.slice(1) : value;
    endedWithCr = value.endsWith("\r");
    const lines = buffered.split(/\r\n|\r|\n/);
    buffered = lines.pop() ?? "";
    for (const line of lines) {
      if (line === "") {
        if (pending.data.length > 0) on.event({ id: pending.id, event: pending.event || "message", data: pending.data.join("\n") });
        pending = { id: pending.id, event: "", data: [] };
        continue;
      }
      if (line.startsWith(":")) continue;
      const colon = line.indexOf(":");
      const field = colon === -1 ? line : line.slice(0, colon);
      const text = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "data") pending.data.push(text);
      else if (field === "event") pending.event = text;
      else if (field === "id" && !text.includes("\0")) pending.id = text;
      else if (field === "retry" && /^\d+$/.test(text)) on.retry(Number(text));
    }
  }
}
