/**
 * Authentication and authorization of every request. `admit` runs before any route (and before the body is
 * read): a request to a path that is not public gets a principal or a 401. `authorize` runs in the router
 * for the matched route: a principal whose role is below the route's gets a 403 naming the role needed.
 * A request carrying the peer header is authenticated by it alone: a wrong or absent instance credential is a
 * 401, whatever else the request holds.
 */
import type { ServerResponse } from "node:http";
import type { Logger } from "../logger";
import { isRejection, type AuthOutcome, type Authenticator, type Rejection } from "./auth/authenticator";
import type { LoginThrottle } from "./auth/login-throttle";
import { ANONYMOUS, roleAllows, type Principal, type Role } from "./auth/principal";
import { digestsEqual, sha256 } from "./auth/secret-digest";
import { HttpError } from "./http-error";
import type { SluiceRequest } from "./request";
import { sendError } from "./responses";

/** The header that carries the instance credential of a query forwarded by another instance. */
export const PEER_HEADER = "x-sluice-peer-token";
const PEER: Principal = Object.freeze({ name: "peer", role: "viewer", mechanism: "peer" });

export interface AccessGuardOptions {
  /** Undefined: `server.auth.mechanism=none`, every request is ANONYMOUS (an admin). */
  authenticator: Authenticator | undefined;
  /** SHA-256 of the instance credential (`server.auth.peer.token.file`). */
  peerDigest: Buffer | undefined;
  publicPaths: readonly string[];
  throttle: LoginThrottle;
  logger: Logger;
}

const READS: ReadonlySet<string | undefined> = new Set(["GET", "HEAD"]);

export class AccessGuard {
  /** Paths built-in plugins serve to anyone for GET and HEAD (a trailing `/` makes a prefix): static files. */
  private readonly publicReads: string[] = [];

  constructor(private readonly options: AccessGuardOptions) {}

  get enabled(): boolean {
    return this.options.authenticator !== undefined;
  }

  /** Sets `req.principal` and calls `next`, or answers 401. A public path has no principal. */
  admit(req: SluiceRequest, res: ServerResponse, next: () => void): void {
    const { authenticator } = this.options;
    if (!authenticator) {
      req.principal = ANONYMOUS;
      return next();
    }
    if (req.method === "OPTIONS" || this.isPublic(req.path) || (READS.has(req.method) && this.publicReads.some((path) => coveredBy(req.path, path)))) return next();
    const failed = (error: unknown) => this.reject(req, res, { reason: `authentication failed: ${(error as Error).message}`, credentialsSent: true }, authenticator.scheme);
    let outcome: AuthOutcome | Promise<AuthOutcome>;
    try {
      outcome = req.headers[PEER_HEADER] !== undefined ? this.peer(req) : authenticator.authenticate(req);
    } catch (error) {
      return failed(error);
    }
    const settle = (result: AuthOutcome) => {
      if (isRejection(result)) return this.reject(req, res, result, authenticator.scheme);
      req.principal = result;
      next();
    };
    if (outcome instanceof Promise) outcome.then(settle, failed);
    else settle(outcome);
  }

  /** Throws a 403 when the request's principal may not use a route that needs `role`. */
  authorize(req: SluiceRequest, role: Role): void {
    const { principal } = req;
    if (principal === undefined || roleAllows(principal.role, role)) return;
    throw new HttpError(403, `${req.method} ${req.path} needs role '${role}'; '${principal.name}' has role '${principal.role}'`);
  }

  /** `/health` is public for `/health` and `/health/...`, not for `/healthz`. */
  isPublic(path: string): boolean {
    for (const prefix of this.options.publicPaths) {
      if (path === prefix || (path.startsWith(prefix) && (prefix.endsWith("/") || path[prefix.length] === "/"))) return true;
    }
    return false;
  }

  /** Lets anyone GET `path` (or, ending in `/`, every path under it). */
  allowPublicReads(path: string): void {
    this.publicReads.push(path);
  }

  private peer(req: SluiceRequest): AuthOutcome {
    const sent = req.headers[PEER_HEADER];
    const { peerDigest } = this.options;
    if (peerDigest && typeof sent === "string" && digestsEqual(sha256(sent), peerDigest)) return PEER;
    return { reason: "wrong instance credential in the peer header", credentialsSent: true };
  }

  private reject(req: SluiceRequest, res: ServerResponse, rejection: Rejection, scheme: string): void {
    const answer = () => {
      res.setHeader("WWW-Authenticate", challenge(req, scheme, rejection));
      sendError(res, 401, `Authentication required: ${rejection.reason}`, req.path);
    };
    if (!rejection.credentialsSent) return answer();
    const { source } = req;
    const delayMs = this.options.throttle.failed(source);
    this.options.logger.warn("authentication failed", { source, method: req.method, path: req.path, reason: rejection.reason, delay_ms: delayMs });
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  }
}

const coveredBy = (path: string, publicPath: string) => (publicPath.endsWith("/") ? path.startsWith(publicPath) : path === publicPath);

/**
 * The `WWW-Authenticate` of a 401. A browser shows its login dialog for a `Basic` challenge, which a script's
 * request must not cause: requests that say they come from a script (an `X-Requested-With` header, or
 * `Sec-Fetch-Mode: cors`, which fetch() and XHR send) get the `SluiceBasic` scheme instead.
 */
function challenge(req: SluiceRequest, scheme: string, rejection: Rejection): string {
  const fromScript = req.headers["x-requested-with"] !== undefined || req.headers["sec-fetch-mode"] === "cors";
  const shown = scheme === "Basic" && fromScript ? "SluiceBasic" : scheme;
  const error = scheme === "Bearer" && rejection.credentialsSent ? `, error="invalid_token"` : "";
  return `${shown} realm="sluice"${error}`;
}
