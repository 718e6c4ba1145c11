/**
 * One open server-sent event response. Frames wait in the subscriber's own bounded buffer while its socket
 * cannot take more (the response's write returned false), so a slow or stalled client loses its oldest frames
 * instead of growing memory or holding anyone else back.
 *
 * A socket is only judged slow once the event loop has turned since it last refused: the records of one
 * polled batch are sent in a single turn, when no socket can have drained, and would otherwise cost every
 * subscriber, fast or not, all but a buffer's worth of a large batch. That burst goes to the socket's own
 * buffer instead, so the memory of a subscriber is its buffer plus at most one burst.
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
  /** Set from a refused write until the next turn of the event loop. */
  private refusedThisTurn = false;
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
    // A full buffer is only a loss when the socket is slow; otherwise it leaves now, whatever the burst size.
    if (this.buffer.size === this.buffer.capacity && !this.slow()) this.write();
    if (this.buffer.push(frame)) this.droppedFrames++;
    if (!this.slow()) this.scheduler.request(this);
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

  /** Writes the buffered frames, unless the socket is slow. */
  flush(): void {
    if (this.ended || this.slow() || this.buffer.size === 0) return;
    this.write();
  }

  private slow(): boolean {
    return this.waitingForDrain && !this.refusedThisTurn;
  }

  private write(): void {
    if (this.response.write(this.buffer.drain().join("")) || this.waitingForDrain) return;
    this.waitingForDrain = true;
    this.refusedThisTurn = true;
    setImmediate(() => (this.refusedThisTurn = false));
    this.response.once("drain", () => {
      this.waitingForDrain = false;
      this.flush();
    });
  }
}
