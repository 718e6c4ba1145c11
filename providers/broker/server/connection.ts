/**
 * One client connection: frames in, dispatched as they arrive, responses out in request order.
 * Anything a client does wrong ends only its own connection. On a SASL listener, frames that arrive while an
 * authentication step is under way wait for it, a failed authentication closes the connection after its answer, and
 * until the client has authenticated a frame larger than the small pre-authentication limit closes it at once
 * (Kafka's sasl.server.max.receive.size). A connection idle for longer than its limit is closed.
 */
import type { Socket } from "node:net";
import type { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import type { ComponentLogger } from "../../../kernel/logger";
import { FrameSplitter, OversizeFrameError } from "../../kafka-protocol/frame-splitter";
import { OrderedResponses } from "./ordered-responses";
import { type ConnectionAddress, type ConnectionAuthentication, ProtocolViolation, type RequestDispatcher } from "./request-dispatcher";

/**
 * Stop reading while this many requests, or requests of this many bytes, await their responses, or this
 * many response bytes await the socket: a client pipelining 1 MB produce requests holds at most that much
 * of the broker's memory, however fast it sends.
 */
const MAX_IN_FLIGHT_REQUESTS = 1000;
const MAX_IN_FLIGHT_REQUEST_BYTES = 32 * 1024 * 1024;
const MAX_BUFFERED_RESPONSE_BYTES = 64 * 1024 * 1024;
/** A client that does not close its end after a refused authentication is cut off after this long. */
const CLOSE_AFTER_REFUSAL_MS = 5_000;

export interface ConnectionSettings {
  /** Larger request frames close the connection. */
  readonly maxRequestBytes: number;
  /** Larger frames close a connection that has yet to authenticate. */
  readonly maxUnauthenticatedBytes: number;
  /** A connection without traffic for this long, and no request in progress, is closed; 0: never. */
  readonly maxIdleMs: number;
  readonly logger: ComponentLogger;
  /** Called with each response's frames once the socket is done with them. */
  readonly written?: (frames: readonly Buffer[]) => void;
}

export class Connection {
  private readonly frames: FrameSplitter;
  private readonly responses: OrderedResponses;
  private closed = false;
  private readingPaused = false;
  private inFlightRequestBytes = 0;
  /** Frames received while an authentication step was under way, in order. */
  private held: ChunkedBytes[] = [];
  /** Authentication failed: nothing more is read, and the socket ends once the answer is written. */
  private ending = false;

  private readonly logger: ComponentLogger;

  constructor(
    private readonly socket: Socket,
    private readonly dispatcher: RequestDispatcher,
    private readonly address: ConnectionAddress,
    private readonly settings: ConnectionSettings,
    private readonly authentication?: ConnectionAuthentication,
  ) {
    this.logger = settings.logger;
    this.frames = new FrameSplitter(this.frameLimit());
    this.responses = new OrderedResponses((frames) => this.write(frames));
    socket.setNoDelay(true);
    socket.on("data", (chunk) => this.receive(chunk));
    socket.on("drain", () => this.resumeIfRoom());
    socket.on("error", (error) => this.logger.debug("connection error", { client: address.clientHost, error: error.message }));
    socket.on("close", () => {
      this.closed = true;
    });
    if (settings.maxIdleMs > 0) {
      socket.setTimeout(settings.maxIdleMs);
      socket.on("timeout", () => this.closeIfIdle());
    }
  }

  close(): void {
    this.closed = true;
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    if (this.closed || this.ending) return;
    let frames: ChunkedBytes[];
    this.frames.maxFrameBytes = this.frameLimit();
    try {
      frames = this.frames.push(chunk);
    } catch (error) {
      if (error instanceof OversizeFrameError) return this.reject(this.authenticated() ? error.message : `${error.message} before authentication (broker.sasl.server.max.receive.size)`);
      throw error;
    }
    this.handleEach(frames);
  }

  private handleEach(frames: ChunkedBytes[]): void {
    for (let i = 0; i < frames.length; i++) {
      if (this.closed || this.ending) return;
      if (this.authentication?.busy) {
        this.held.push(...frames.slice(i));
        break;
      }
      this.handle(frames[i]);
    }
    this.pauseIfFull();
  }

  private handle(frame: ChunkedBytes): void {
    let response: Promise<Buffer[] | null>;
    try {
      response = this.authentication?.expectsBareToken ? this.authentication.bareToken(frame) : this.dispatcher.dispatch(frame, this.address, this.authentication);
    } catch (error) {
      if (error instanceof ProtocolViolation) return this.reject(error.message);
      return this.fail(error);
    }
    const deliver = this.responses.reserve();
    this.inFlightRequestBytes += frame.length;
    response.then(
      (frames) => {
        this.inFlightRequestBytes -= frame.length;
        if (this.authentication?.failed) this.endAfterAnswers();
        deliver(frames);
        if (this.ending && this.responses.inFlight === 0) this.socket.end();
        this.resumeIfRoom();
        if (this.held.length > 0 && !this.authentication?.busy) this.handleEach(this.held.splice(0));
      },
      (error: unknown) => this.fail(error),
    );
  }

  private write(frames: Buffer[]): void {
    if (this.closed || frames.length === 0) return;
    this.socket.cork();
    const last = frames.length - 1;
    for (let i = 0; i < last; i++) this.socket.write(frames[i]);
    // The callback of the last write runs once all of them left (or failed to): the frames' memory is free again.
    const written = this.settings.written;
    this.socket.write(frames[last], written && (() => written(frames)));
    this.socket.uncork();
  }

  private authenticated(): boolean {
    return !this.authentication || this.authentication.principal !== null;
  }

  private frameLimit(): number {
    return this.authenticated() ? this.settings.maxRequestBytes : this.settings.maxUnauthenticatedBytes;
  }

  /** Idle: nothing read or written for the idle limit. A request in progress (a long rebalance) is not idleness. */
  private closeIfIdle(): void {
    if (this.closed) return;
    if (this.responses.inFlight > 0) {
      this.socket.setTimeout(this.settings.maxIdleMs);
      return;
    }
    this.logger.debug("closing an idle connection", { client: this.address.clientHost, idleMs: this.settings.maxIdleMs });
    this.close();
  }

  private endAfterAnswers(): void {
    if (this.ending) return;
    this.ending = true;
    this.held = [];
    setTimeout(() => this.close(), CLOSE_AFTER_REFUSAL_MS).unref();
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
      !this.authentication?.busy &&
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
