/** Turns one request frame into its (eventual) response frame through the table of handlers. */
import type { RegisteredHandler, RequestContext } from "../handlers/api-handler";
import { ByteReader } from "../../kafka-protocol/byte-reader";
import type { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import { MessageCodec } from "../../kafka-protocol/codec";
import { MalformedMessageError } from "../../kafka-protocol/malformed-message-error";
import { REQUEST_HEADER_VERSION, RequestHeaderFields } from "../../kafka-protocol/messages/request-header";
import type { DecodedStructOf } from "../../kafka-protocol/schema";

type RequestHeader = DecodedStructOf<typeof RequestHeaderFields>;

/** A request the connection cannot answer: it is closed. */
export class ProtocolViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ProtocolViolation";
  }
}

export interface ConnectionAddress {
  readonly clientHost: string;
  readonly advertisedHost: string;
  readonly advertisedPort: number;
}

const headerCodec = new MessageCodec("RequestHeader", RequestHeaderFields);

export class RequestDispatcher {
  constructor(private readonly handlers: ReadonlyMap<number, RegisteredHandler>) {}

  /** Throws ProtocolViolation (synchronously) for a request that must close the connection. */
  dispatch(frame: ChunkedBytes, address: ConnectionAddress): Promise<Buffer[] | null> {
    const reader = new ByteReader(frame);
    const header = this.readHeader(reader);
    const handler = this.handlers.get(header.apiKey);
    if (!handler) throw new ProtocolViolation(`unknown api key ${header.apiKey}`);
    const context: RequestContext = {
      apiVersion: header.apiVersion,
      correlationId: header.correlationId,
      clientId: header.clientId ?? "",
      ...address,
    };
    if (!handler.api.supports(header.apiVersion)) {
      if (!handler.answerUnsupportedVersion) {
        throw new ProtocolViolation(`${handler.api.spec.name} v${header.apiVersion} is not supported`);
      }
      return Promise.resolve(handler.answerUnsupportedVersion(context));
    }
    try {
      return handler.run(reader, context);
    } catch (error) {
      if (error instanceof MalformedMessageError) {
        throw new ProtocolViolation(`malformed ${handler.api.spec.name} v${header.apiVersion} request: ${error.message}`);
      }
      throw error;
    }
  }

  private readHeader(reader: ByteReader): RequestHeader {
    try {
      return headerCodec.decode(reader, REQUEST_HEADER_VERSION) as RequestHeader;
    } catch (error) {
      if (error instanceof MalformedMessageError) throw new ProtocolViolation(`malformed request header: ${error.message}`);
      throw error;
    }
  }
}
