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
  /** The client's address, read as the request arrived (a socket that closes forgets it). */
  source: string;
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
  let body: unknown;
  try {
    body = JSON.parse(req.rawBody.toString("utf8"));
  } catch (error) {
    throw new HttpError(400, `Request body is not valid JSON: ${(error as Error).message}`);
  }
  if (depthOver(body, MAX_JSON_DEPTH)) throw new HttpError(400, `Request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`);
  return body;
}

/** Deeper bodies are refused: what reads them (schema checks, rendering) recurses, and no request of the API needs more. */
export const MAX_JSON_DEPTH = 64;

/** Whether `value` nests arrays and objects deeper than `limit`, found without recursion. */
function depthOver(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 1]];
  while (pending.length > 0) {
    const [item, depth] = pending.pop()!;
    if (typeof item !== "object" || item === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) if (typeof child === "object" && child !== null) pending.push([child, depth + 1]);
  }
  return false;
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

/** A body being read, kept on its request for the listeners, which are the same functions for every request. */
interface BodyReading {
  limit: number;
  size: number;
  /** The chunks so far; a small body arrives as one, and is then the body as it is, with no copy. */
  chunks: Buffer | Buffer[] | undefined;
  /** Undefined once the reading has ended, one way or the other. */
  done: ((error: unknown, body?: Buffer) => void) | undefined;
}

const READING = Symbol("body reading");
type ReadingRequest = IncomingMessage & { [READING]: BodyReading };

/**
 * Reads the whole body, failing with 413 as soon as it passes `limit` bytes. It reports to a callback rather
 * than a promise, and listens with functions shared by every request: this runs for every POST, and a promise with
 * its reactions, or closures per request, cost more than one object.
 */
export function readBody(req: IncomingMessage, limit: number, done: (error: unknown, body?: Buffer) => void): void {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) {
    done(tooLarge(limit));
    return;
  }
  (req as ReadingRequest)[READING] = { limit, size: 0, chunks: undefined, done };
  req.on("data", onBodyData);
  req.on("end", onBodyEnd);
  req.on("error", onBodyError);
}

function onBodyData(this: ReadingRequest, chunk: Buffer): void {
  const reading = this[READING];
  reading.size += chunk.length;
  if (reading.size > reading.limit) {
    this.removeListener("data", onBodyData);
    this.resume();
    settle(reading, tooLarge(reading.limit));
    return;
  }
  const { chunks } = reading;
  if (chunks === undefined) reading.chunks = chunk;
  else if (Array.isArray(chunks)) chunks.push(chunk);
  else reading.chunks = [chunks, chunk];
}

function onBodyEnd(this: ReadingRequest): void {
  const { chunks, size } = this[READING];
  settle(this[READING], undefined, chunks === undefined ? EMPTY_BODY : Array.isArray(chunks) ? Buffer.concat(chunks, size) : chunks);
}

function onBodyError(this: ReadingRequest, error: Error): void {
  settle(this[READING], error);
}

function settle(reading: BodyReading, error: unknown, body?: Buffer): void {
  const { done } = reading;
  if (done === undefined) return;
  reading.done = undefined;
  reading.chunks = undefined;
  done(error, body);
}

/** The body of a request that sent none. */
export const EMPTY_BODY = Buffer.alloc(0);
const tooLarge = (limit: number) => new HttpError(413, `Request body is larger than the limit of ${limit} bytes (server.body.limit)`);
