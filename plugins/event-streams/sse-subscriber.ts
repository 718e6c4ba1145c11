/**
 * One open server-sent event response. Frames wait in the subscriber's own bounded buffer while its socket
 * cannot take more (the response's write returned false), so a slow or stalled client loses its oldest frames
 * instead of growing memory or holding anyone else back.
 */
import type { ServerResponse } from "node:http";
import { BoundedQueue } from "./bounded-queue";
import type { Flushable, FlushScheduler } from "./flush-scheduler";
import { KEEP_ALIVE_FRAME, RETRY_FRAME } from "./sse-frames";

export const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache",
  // Proxies such as nginx would otherwise hold events back.
  "X-Accel-Buffering": "no",
} as const;

export class SseSubscriber implements Flushable {
  private readonly buffer: BoundedQueue<string>;
  private waitingForDrain = false;
  private ended = false;
  private droppedFrames = 0;

  constructor(private readonly response: ServerResponse, bufferSize: number, private readonly scheduler: FlushScheduler) {
    this.buffer = new BoundedQueue(bufferSize);
    response.once("close", () => (this.ended = true));
    // The body ends with the connection: one plain write per flush instead of a chunk header, data and CRLF,
    // which is most of the cost of fanning a record out to many subscribers.
    response.useChunkedEncodingByDefault = false;
    response.writeHead(200, SSE_HEADERS);
    response.write(RETRY_FRAME);
  }

  /** Frames this subscriber lost because its buffer was full. */
  get dropped(): number {
    return this.droppedFrames;
  }

  push(frame: string): void {
    if (this.ended) return;
    // A full buffer is only a loss when the socket is backed up; otherwise it leaves now, whatever the burst size.
    if (this.buffer.size === this.buffer.capacity && !this.waitingForDrain) this.flush();
    if (this.buffer.push(frame)) this.droppedFrames++;
    if (!this.waitingForDrain) this.scheduler.request(this);
  }

  /** Skipped while frames are waiting: they keep the connection alive themselves. */
  keepAlive(): void {
    if (this.ended || this.waitingForDrain || this.buffer.size > 0) return;
    this.response.write(KEEP_ALIVE_FRAME);
  }

  /** Sends what is still buffered, then ends the response. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.response.end(this.buffer.drain().join(""));
  }

  /** Writes the buffered frames, unless the socket has not taken the previous ones yet. */
  flush(): void {
    if (this.ended || this.waitingForDrain || this.buffer.size === 0) return;
    if (this.response.write(this.buffer.drain().join(""))) return;
    this.waitingForDrain = true;
    this.response.once("drain", () => {
      this.waitingForDrain = false;
      this.flush();
    });
  }
}
