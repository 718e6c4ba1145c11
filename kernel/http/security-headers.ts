/** Headers every response carries: no MIME sniffing, no referrer, no framing, a strict CSP (pages load only their own resources). */
import type { ServerResponse } from "node:http";

const HEADERS: [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "no-referrer"],
  ["X-Frame-Options", "DENY"],
  ["Content-Security-Policy", "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"],
];
const HSTS: [string, string] = ["Strict-Transport-Security", "max-age=31536000"];

export function securityHeaders(tls: boolean): (res: ServerResponse) => void {
  const headers = tls ? [...HEADERS, HSTS] : HEADERS;
  return (res) => {
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}
