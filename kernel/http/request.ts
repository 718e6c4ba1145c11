/** The request as route handlers see it: polka's request with the raw body read by the kernel. */
import type { IncomingMessage } from "node:http";
import { HttpError } from "./http-error";

export interface SluiceRequest extends IncomingMessage {
  /** Path without the query string. */
  path: string;
  /** Route parameters, URL-decoded. */
  params: Record<string, string>;
  query: Record<string, string | string[] | undefined>;
  /** The request body (empty when none was sent). */
  rawBody: Buffer;
}

/**
 * The body parsed as JSON, or `undefined` when the request has no body. A body with a content type other
 * than JSON is 415; malformed JSON is 400.
 */
export function jsonBody(req: SluiceRequest): unknown {
  if (req.rawBody.length === 0) return undefined;
  const type = (req.headers["content-type"] ?? "application/json").split(";", 1)[0].trim().toLowerCase();
  if (type !== "application/json" && !type.endsWith("+json")) {
    throw new HttpError(415, `Request body must be application/json, got '${type}'`);
  }
  try {
    return JSON.parse(req.rawBody.toString("utf8"));
  } catch (error) {
    throw new HttpError(400, `Request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads the whole body, failing with 413 as soon as it passes `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners("data");
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks, size)));
    req.on("error", reject);
  });
}

const tooLarge = (limit: number) => new HttpError(413, `Request body is larger than the limit of ${limit} bytes (server.body.limit)`);
