/** A raw server-sent events client on node:http for the event stream tests: keeps every frame it parses. */
import http from "node:http";
import net from "node:net";
import { eventually } from "../../helpers/eventually";

export interface SseEvent {
  id: string;
  event: string;
  data: { key: unknown; value: unknown; timestamp: number };
  /** Date.now() when the frame was parsed. */
  receivedAt: number;
}

export interface SseReader {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Everything received, as text. */
  text(): string;
  events: SseEvent[];
  comments: string[];
  ended: boolean;
  /** Waits until `count` events have arrived; returns the first `count`. */
  waitForEvents(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  close(): void;
}

export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseReader> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers: { Accept: "text/event-stream", ...headers } }, (response) => {
      response.setEncoding("utf8");
      let raw = "";
      let pending = "";
      const reader: SseReader = {
        status: response.statusCode ?? 0,
        headers: response.headers,
        text: () => raw,
        events: [],
        comments: [],
        ended: false,
        waitForEvents: (count, timeoutMs = 10_000) =>
          eventually(() => reader.events.length >= count && reader.events.slice(0, count), { timeoutMs, what: `${count} events` }),
        close: () => request.destroy(),
      };
      response.on("data", (chunk: string) => {
        raw += chunk;
        pending += chunk;
        let boundary: number;
        while ((boundary = pending.indexOf("\n\n")) >= 0) {
          parseFrame(pending.slice(0, boundary), reader);
          pending = pending.slice(boundary + 2);
        }
      });
      response.on("end", () => (reader.ended = true));
      response.on("error", () => (reader.ended = true));
      resolve(reader);
    });
    request.on("error", reject);
  });
}

function parseFrame(frame: string, reader: SseReader): void {
  const fields: Record<string, string> = {};
  for (const line of frame.split("\n")) {
    if (line.startsWith(":")) reader.comments.push(line.slice(1).trim());
    else {
      const colon = line.indexOf(":");
      fields[line.slice(0, colon)] = line.slice(colon + 1).replace(/^ /, "");
    }
  }
  if (fields.data === undefined) return;
  reader.events.push({ id: fields.id, event: fields.event, data: JSON.parse(fields.data), receivedAt: Date.now() });
}

export interface StalledSubscriber {
  /** Starts reading what the server sent. */
  resume(): void;
  /** Ids of the events read so far (the body is chunked, but every chunk holds whole frames). */
  ids(): number[];
  close(): void;
}

/** A subscriber that sends its request and then never reads, until resumed: the server's writes back up. */
export async function openStalledSubscriber(url: string): Promise<StalledSubscriber> {
  const { hostname, port, pathname } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  socket.pause();
  socket.write(`GET ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nAccept: text/event-stream\r\n\r\n`);
  let raw = "";
  return {
    resume: () => {
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => (raw += chunk));
      socket.resume();
    },
    ids: () => [...raw.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1])),
    close: () => socket.destroy(),
  };
}
