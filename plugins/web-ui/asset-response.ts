/**
 * Sending one console file: `304 Not Modified` when the client's ETag still matches, the precompressed body
 * when the client accepts gzip (with `Vary: Accept-Encoding`, each encoding its own ETag), the cache policy of
 * the file otherwise.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ConsoleAsset } from "./console-assets";

export function sendAsset(req: IncomingMessage, res: ServerResponse, asset: ConsoleAsset): void {
  const gzip = asset.gzipped !== undefined && acceptsGzip(req.headers["accept-encoding"]);
  const etag = gzip ? `"${asset.etag}-gz"` : `"${asset.etag}"`;
  res.setHeader("ETag", etag);
  res.setHeader("Cache-Control", asset.cacheControl);
  if (asset.gzipped !== undefined) res.setHeader("Vary", "Accept-Encoding");
  if (matches(req.headers["if-none-match"], etag)) {
    res.writeHead(304).end();
    return;
  }
  const body = gzip ? asset.gzipped! : asset.body;
  res.writeHead(200, {
    "Content-Type": asset.contentType,
    "Content-Length": body.length,
    ...(gzip ? { "Content-Encoding": "gzip" } : {}),
  });
  res.end(body);
}

/** Whether `Accept-Encoding` takes gzip: named (or `*`) with a weight above zero. */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let wildcard = false;
  for (const item of header.split(",")) {
    const [coding, ...parameters] = item.trim().toLowerCase().split(";");
    const weight = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith("q="));
    const accepted = weight === undefined || Number(weight.slice(2)) > 0;
    if (coding.trim() === "gzip") return accepted;
    if (coding.trim() === "*") wildcard = accepted;
  }
  return wildcard;
}

/** `If-None-Match` holds `*` or this ETag (compared weakly, as RFC 9110 asks for GET). */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(",").some((candidate) => {
    const tag = candidate.trim();
    return tag === "*" || tag.replace(/^W\//, "") === etag;
  });
}
