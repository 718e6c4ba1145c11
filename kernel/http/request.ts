/** The request as route handlers see it: polka's request with the raw body read by the kernel. */
import type { IncomingMessage } from "node:http";
import type { Principal } from "./auth/principal";
import { badRequest, HttpError } from "./http-error";
import { schemaViolation } from "./json-schema";
import type { BodySpec } from "./route-spec";

export interface SluiceRequest extends IncomingMessage {
  /** Path without the query string. */
  path: string;
  /** Route parameters, URL-decoded. */
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  /** The request body (empty when none was sent). */
  rawBody: Buffer;
  /** The body parsed and checked against the schema the route declares (`RouteSpec.body`); undefined otherwise. */
  body?: unknown;
  /** `performance.now()` when the kernel took the request. */
  receivedAt: number;
  /** The pattern of the route that answers (`/api/v1/streams/:id`), set by the router as it dispatches. */
  route?: string;
  /**
   * Who sent the request (name, role, mechanism), set by the kernel before any route runs; with
   * `server.auth.mechanism=none` an anonymous admin. Undefined only on a public path (`server.auth.public.paths`).
   */
  principal?: Principal;
}

/**
 * The body parsed as JSON, or `undefined` when the request has no body. A body with a content type other
 * than JSON is 415; malformed JSON is 400.
 */
export function jsonBody(req: SluiceRequest): unknown {
  if (req.rawBody.length === 0) return undefined;
  const header = req.headers["content-type"];
  // The plain header most clients send is taken as it is; any other is parsed down to its media type.
  if (header !== undefined && header !== "application/json") {
    const type = header.split(";", 1)[0].trim().toLowerCase();
    if (type !== "application/json" && !type.endsWith("+json")) throw new HttpError(415, `Request body must be application/json, got '${type}'`);
  }
  try {
    return JSON.parse(req.rawBody.toString("utf8"));
  } catch (error) {
    throw new HttpError(400, `Request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** The JSON body checked against a route's declaration: 400 naming the field that fails it. */
export function validatedJsonBody(req: SluiceRequest, spec: BodySpec): unknown {
  const body = jsonBody(req);
  if (body === undefined) {
    if (spec.required === false) return undefined;
    throw badRequest(`Request body is required${spec.description ? `: ${spec.description}` : ""}`);
  }
  const violation = schemaViolation(spec.schema, body);
  if (violation) throw badRequest(violation);
  return body;
}

/**
 * Reads the whole body, failing with 413 as soon as it passes `limit` bytes. It reports to a callback rather
 * than a promise: this runs for every POST, and a promise with its reactions costs more than one function.
 */
export function readBody(req: IncomingMessage, limit: number, done: (error: unknown, body?: Buffer) => void): void {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) {
    done(tooLarge(limit));
    return;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  let settled = false;
  const settle = (error: unknown, body?: Buffer) => {
    if (settled) return;
    settled = true;
    done(error, body);
  };
  req.on("data", (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) {
      req.removeAllListeners("data");
      req.resume();
      settle(tooLarge(limit));
      return;
    }
    chunks.push(chunk);
  });
  // A small body arrives in one chunk: it is the body as it is, with no copy.
  req.on("end", () => settle(undefined, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)));
  req.on("error", settle);
}

const tooLarge = (limit: number) => new HttpError(413, `Request body is larger than the limit of ${limit} bytes (server.body.limit)`);
