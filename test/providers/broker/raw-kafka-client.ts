/**
 * A bare Kafka protocol client for tests that need exact control of the bytes: pipelining, bad frames,
 * unsupported versions, bare SASL tokens. It encodes requests and decodes responses with the protocol package's
 * declarations, in the flexible encoding (request header v2, response header v1) where the API's version is flexible.
 */
import { connect, type Socket } from "node:net";
import { ApiCodec } from "../../../providers/kafka-protocol/api-codec";
import { ByteReader } from "../../../providers/kafka-protocol/byte-reader";
import type { ApiSpec, DecodedStructOf, StructOf } from "../../../providers/kafka-protocol/schema";
import type { ChunkedBytes } from "../../../providers/kafka-protocol/chunked-bytes";
import { FrameSplitter } from "../../../providers/kafka-protocol/frame-splitter";

export interface RawResponse {
  correlationId: number;
  body: ByteReader;
}

export class RawKafkaClient {
  private readonly received: ChunkedBytes[] = [];
  private readonly waiting: ((frame: ChunkedBytes) => void)[] = [];
  private readonly frames = new FrameSplitter(1 << 30);
  private nextCorrelationId = 1;
  readonly closed: Promise<void>;

  private constructor(private readonly socket: Socket) {
    socket.on("data", (chunk) => {
      for (const frame of this.frames.push(chunk)) {
        const waiter = this.waiting.shift();
        if (waiter) waiter(frame);
        else this.received.push(frame);
      }
    });
    socket.on("error", () => undefined);
    this.closed = new Promise((resolve) => socket.once("close", () => resolve()));
  }

  /** `localAddress`: the address to connect from (any 127.x.y.z is this machine). */
  static connect(port: number, host = "127.0.0.1", localAddress?: string): Promise<RawKafkaClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host, localAddress }, () => resolve(new RawKafkaClient(socket)));
      socket.once("error", reject);
    });
  }

  /** Sends a request and returns its correlation id. */
  send<A extends ApiSpec>(api: A, version: number, body: StructOf<A["request"]>, apiKey = api.apiKey): number {
    this.writeRaw(this.frame(api, version, body, apiKey));
    return this.nextCorrelationId - 1;
  }

  /** A request frame with the next correlation id, to write later (several in one write). */
  frame<A extends ApiSpec>(api: A, version: number, body: StructOf<A["request"]>, apiKey = api.apiKey): Buffer {
    const correlationId = this.nextCorrelationId++;
    const frame = Buffer.concat(new ApiCodec(api).encodeRequestFrame(correlationId, version, "raw-test", body));
    frame.writeInt16BE(apiKey, 4);
    return frame;
  }

  writeRaw(bytes: Buffer): void {
    this.socket.write(bytes);
  }

  /** A size-prefixed frame without a request header: a bare SASL token after SaslHandshake v0. */
  sendBare(token: Buffer): void {
    const size = Buffer.alloc(4);
    size.writeInt32BE(token.length);
    this.writeRaw(Buffer.concat([size, token]));
  }

  /** The next frame off the wire, whole: a bare SASL token. */
  nextFrame(): Promise<ChunkedBytes> {
    const ready = this.received.shift();
    if (ready) return Promise.resolve(ready);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The next response off the wire, in arrival order. */
  async next(): Promise<RawResponse> {
    const reader = new ByteReader(await this.nextFrame());
    return { correlationId: reader.int32(), body: reader };
  }

  static decode<A extends ApiSpec>(api: A, version: number, response: RawResponse): DecodedStructOf<A["response"]> {
    return new ApiCodec(api).decodeResponse(response.body, version) as DecodedStructOf<A["response"]>;
  }

  async request<A extends ApiSpec>(api: A, version: number, body: StructOf<A["request"]>): Promise<DecodedStructOf<A["response"]>> {
    this.send(api, version, body);
    return RawKafkaClient.decode(api, version, await this.next());
  }

  close(): void {
    this.socket.destroy();
  }
}
