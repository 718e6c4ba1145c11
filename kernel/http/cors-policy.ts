/**
 * CORS, off unless `server.cors.origins` lists origins (or `*`): an allowed origin's requests get
 * `Access-Control-Allow-Origin`, and its preflight (OPTIONS with `Access-Control-Request-Method`) is answered
 * with the path's methods and the headers Sluice reads. Other origins get no CORS headers, so browsers refuse.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

const ALLOWED_HEADERS = "Authorization, Content-Type, X-Requested-With, Last-Event-ID";

export class CorsPolicy {
  private readonly anyOrigin: boolean;

  constructor(private readonly origins: readonly string[]) {
    this.anyOrigin = origins.includes("*");
  }

  /** Adds the CORS headers of an ordinary request from an allowed origin. */
  decorate(req: IncomingMessage, res: ServerResponse): void {
    const origin = req.headers.origin;
    if (origin === undefined || !(this.anyOrigin || this.origins.includes(origin))) return;
    res.setHeader("Access-Control-Allow-Origin", origin);
    res.setHeader("Vary", "Origin");
    if (!this.anyOrigin) res.setHeader("Access-Control-Allow-Credentials", "true");
  }

  /** Adds the preflight answer's headers; `methods` are those of the path. */
  preflight(req: IncomingMessage, res: ServerResponse, methods: readonly string[]): void {
    if (req.headers["access-control-request-method"] === undefined || !res.hasHeader("Access-Control-Allow-Origin")) return;
    res.setHeader("Access-Control-Allow-Methods", methods.join(", "));
    res.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
    res.setHeader("Access-Control-Max-Age", "600");
  }
}
