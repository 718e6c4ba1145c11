/**
 * One client connection: frames in, dispatched as they arrive, responses out in request order.
 * Anything a client does wrong ends only its own connection.
 */
import type { Socket } from "node:net";
import type { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import type { ComponentLogger } from "../../../kernel/logger";
import { FrameSplitter, OversizeFrameError } from "../../kafka-protocol/frame-splitter";
import { OrderedResponses } from "./ordered-responses";
import { type ConnectionAddress, ProtocolViolation, type RequestDispatcher } from "./request-dispatcher";

/**
 * Stop reading while this many requests, or requests of this many bytes, await their responses, or this
 * many response bytes await the socket: a client pipelining 1 MB produce requests holds at most that much
 * of the broker's memory, however fast it sends.
 */
const MAX_IN_FLIGHT_REQUESTS = 1000;
const MAX_IN_FLIGHT_REQUEST_BYTES = 32 * 1024 * 1024;
const MAX_BUFFERED_RESPONSE_BYTES = 64 * 1024 * 1024;

export class Connection {
  private readonly frames: FrameSplitter;
  private readonly responses: OrderedResponses;
  private closed = false;
  private readingPaused = false;
  private inFlightRequestBytes = 0;

  constructor(
    private readonly socket: Socket,
    private readonly dispatcher: RequestDispatcher,
    private readonly address: ConnectionAddress,
    maxRequestBytes: number,
    private readonly logger: ComponentLogger,
  ) {
    this.frames = new FrameSplitter(maxRequestBytes);
    this.responses = new OrderedResponses((frames) => this.write(frames));
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.receive(chunk));
    socket.on("drain", () => this.resumeIfRoom());
    socket.on("error", (error) => this.logger.debug("connection error", { client: address.clientHost, error: error.message }));
    socket.on("close", () => {
      this.closed = true;
    });
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    if (this.closed) return;
    let frames: ChunkedBytes[];
    try {
      frames = this.frames.push(chunk);
    } catch (error) {
      if (error instanceof OversizeFrameError) return this.reject(error.message);
      throw error;
    }
    for (const frame of frames) {
      if (this.closed) return;
      this.handle(frame);
    }
    this.pauseIfFull();
  }

  private handle(frame: ChunkedBytes): void {
    let response: Promise<Buffer[] | null>;
    try {
      response = this.dispatcher.dispatch(frame, this.address);
    } catch (error) {
      if (error instanceof ProtocolViolation) return this.reject(error.message);
      return this.fail(error);
    }
    const deliver = this.responses.reserve();
    this.inFlightRequestBytes += frame.length;
    response.then(
      (frames) => {
        this.inFlightRequestBytes -= frame.length;
        deliver(frames);
        this.resumeIfRoom();
      },
      (error: unknown) => this.fail(error),
    );
  }

  private write(frames: Buffer[]): void {
    if (this.closed) return;
    this.socket.cork();
    for (const frame of frames) this.socket.write(frame);
    this.socket.uncork();
  }

  private pauseIfFull(): void {
    if (this.readingPaused || this.closed) return;
    if (!this.hasRoom()) {
      this.readingPaused = true;
      this.socket.pause();
    }
  }

  private resumeIfRoom(): void {
    if (!this.readingPaused || this.closed) return;
    if (this.hasRoom()) {
      this.readingPaused = false;
      this.socket.resume();
    }
  }

  private hasRoom(): boolean {
    return (
      this.responses.inFlight < MAX_IN_FLIGHT_REQUESTS &&
      this.inFlightRequestBytes < MAX_IN_FLIGHT_REQUEST_BYTES &&
      this.socket.writableLength < MAX_BUFFERED_RESPONSE_BYTES
    );
  }

  /** The client broke the protocol. */
  private reject(reason: string): void {
    this.logger.warn("closing connection after a bad request", { client: this.address.clientHost, reason });
    this.close();
  }

  /** The broker failed to answer: the client cannot be told which request failed, so it reconnects. */
  private fail(error: unknown): void {
    if (this.closed) return;
    this.logger.error("request failed; closing its connection", { client: this.address.clientHost, error });
    this.close();
  }
}
