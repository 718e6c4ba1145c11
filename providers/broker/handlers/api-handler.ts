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
  /** Who sent it: `User:<SASL name>`, `User:<client certificate's subject>`, or `User:ANONYMOUS`. */
  readonly principal: string;
}

/** null: send no response (Produce with acks=0). */
export type HandlerResult<A extends ApiSpec> = ResponseOf<A> | null;

/** What authorization leaves of one request, and how it completes the answer. */
export interface Authorized<A extends ApiSpec> {
  /** The part of the request the principal may have served, or null to serve none of it. */
  readonly request: RequestOf<A> | null;
  /** The answer to the whole request, given the served part's (null when none was served). */
  complete(served: HandlerResult<A>): HandlerResult<A>;
}

/** Narrows one API's requests to what the requester may do, answering the rest with Kafka's authorization errors. */
export type AuthorizationRule<A extends ApiSpec> = (request: RequestOf<A>, context: RequestContext) => Authorized<A>;

/** A rule of any API, as the handler table holds it (it pairs each rule with its own API's handler). */
export type AnyAuthorizationRule = (request: never, context: RequestContext) => { readonly request: unknown; complete(served: never): unknown };

export interface RegisteredHandler {
  readonly api: ApiCodec;
  /**
   * Decodes the request synchronously (throwing MalformedMessageError), so that requests start in the order
   * they arrived, then resolves to the response frame, or null when none is sent.
   */
  run(body: ByteReader, context: RequestContext): Promise<Buffer[] | null>;
  /** A response for a version this broker does not implement, or undefined to close the connection. */
  answerUnsupportedVersion?(context: RequestContext): Buffer[];
  /** The same handler serving only what `rule` (one of this API's) authorizes of each request (defineHandler's have it). */
  guardedBy?(rule: AnyAuthorizationRule): RegisteredHandler;
}

/** `versions`: those of the declared versions this broker serves (and advertises), as declarations write ranges; all when omitted. */
export function defineHandler<A extends ApiSpec>(
  spec: A,
  handle: (request: RequestOf<A>, context: RequestContext) => HandlerResult<A> | Promise<HandlerResult<A>>,
  versions?: string,
): RegisteredHandler {
  const api = new ApiCodec(spec, versions);
  // Synchronous up to the handler's call, which starts in request order (a throw of it stays synchronous too).
  const serve = (request: RequestOf<A>, context: RequestContext, rule?: AuthorizationRule<A>): HandlerResult<A> | Promise<HandlerResult<A>> => {
    if (!rule) return handle(request, context);
    const authorized = rule(request, context);
    if (authorized.request === null) return authorized.complete(null);
    return Promise.resolve(handle(authorized.request, context)).then((served) => authorized.complete(served));
  };
  const registered = (rule?: AuthorizationRule<A>): RegisteredHandler => ({
    api: api as unknown as ApiCodec,
    run(body, context) {
      const request = api.decodeRequest(body, context.apiVersion);
      return Promise.resolve(serve(request, context, rule)).then((response) =>
        response === null ? null : api.encodeResponseFrame(context.correlationId, context.apiVersion, response),
      );
    },
    guardedBy: (next) => registered(next as unknown as AuthorizationRule<A>),
  });
  return registered();
}
