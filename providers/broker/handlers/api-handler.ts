/**
 * A handler serves one API. `defineHandler` binds a typed handle function to its declaration and erases
 * the types behind `RegisteredHandler`, which the dispatcher calls without knowing the API.
 */
import { ApiCodec } from "../../kafka-protocol/api-codec";
import type { ByteReader } from "../../kafka-protocol/byte-reader";
import type { ApiSpec, RequestOf, ResponseOf } from "../../kafka-protocol/schema";

export interface RequestContext {
  readonly apiVersion: number;
  readonly correlationId: number;
  readonly clientId: string;
  /** The client's address as Kafka reports it ("/127.0.0.1"). */
  readonly clientHost: string;
  /** The address clients reach this broker at, as Metadata and FindCoordinator advertise it. */
  readonly advertisedHost: string;
  readonly advertisedPort: number;
}

/** null: send no response (Produce with acks=0). */
export type HandlerResult<A extends ApiSpec> = ResponseOf<A> | null;

export interface RegisteredHandler {
  readonly api: ApiCodec;
  /**
   * Decodes the request synchronously (throwing MalformedMessageError), so that requests start in the order
   * they arrived, then resolves to the response frame, or null when none is sent.
   */
  run(body: ByteReader, context: RequestContext): Promise<Buffer[] | null>;
  /** A response for a version this broker does not implement, or undefined to close the connection. */
  answerUnsupportedVersion?(context: RequestContext): Buffer[];
}

export function defineHandler<A extends ApiSpec>(
  spec: A,
  handle: (request: RequestOf<A>, context: RequestContext) => HandlerResult<A> | Promise<HandlerResult<A>>,
): RegisteredHandler {
  const api = new ApiCodec(spec);
  return {
    api: api as unknown as ApiCodec,
    run(body, context) {
      const request = api.decodeRequest(body, context.apiVersion);
      return Promise.resolve(handle(request, context)).then((response) =>
        response === null ? null : api.encodeResponseFrame(context.correlationId, context.apiVersion, response),
      );
    },
  };
}
