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
  /** Who the connection is without SASL: its client certificate's subject, or User:ANONYMOUS. */
  readonly principal: string;
}

/**
 * What one connection's authentication decides about its requests (a SASL listener's session): which it admits,
 * and its own handlers of the SASL APIs, which take the table's place.
 */
export interface ConnectionAuthentication {
  /** Why a request of `apiKey` closes the connection (it comes before authentication), or undefined to serve it. */
  refusal(apiKey: number): string | undefined;
  handler(apiKey: number): RegisteredHandler | undefined;
  /** An exchange step is under way: the connection holds the requests that follow until it is done. */
  readonly busy: boolean;
  /** After a SaslHandshake v0, the frames are bare SASL tokens until the exchange ends (KIP-43). */
  readonly expectsBareToken: boolean;
  /** The answer to a bare token (itself a size-prefixed token), or null when authentication failed. */
  bareToken(frame: ChunkedBytes): Promise<Buffer[] | null>;
  /** Authentication failed: the connection closes once its answer is written. */
  readonly failed: boolean;
  /** `User:<name>` once the client has authenticated; null before. */
  readonly principal: string | null;
}

const headerCodec = new MessageCodec("RequestHeader", RequestHeaderFields);

export class RequestDispatcher {
  constructor(private readonly handlers: ReadonlyMap<number, RegisteredHandler>) {}

  /** Throws ProtocolViolation (synchronously) for a request that must close the connection. */
  dispatch(frame: ChunkedBytes, address: ConnectionAddress, authentication?: ConnectionAuthentication): Promise<Buffer[] | null> {
    const reader = new ByteReader(frame);
    const header = this.readHeader(reader);
    const handler = authentication?.handler(header.apiKey) ?? this.handlers.get(header.apiKey);
    if (!handler) throw new ProtocolViolation(`unknown api key ${header.apiKey}`);
    const refusal = authentication?.refusal(header.apiKey);
    if (refusal !== undefined) throw new ProtocolViolation(`${handler.api.spec.name} request ${refusal}`);
    const context: RequestContext = {
      apiVersion: header.apiVersion,
      correlationId: header.correlationId,
      clientId: header.clientId ?? "",
      ...address,
      principal: authentication?.principal ?? address.principal,
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
