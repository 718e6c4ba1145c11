/**
 * Authentication and authorization of every request. `admit` runs before any route (and before the body is
 * read): a request to a path that is not public gets a principal or a 401. `authorize` runs in the router
 * for the matched route: a principal whose role is below the route's gets a 403 naming the role needed.
 * Public paths (`server.auth.public.paths`) are public for reads only; credentials sent there are still checked,
 * so a route can tell an authenticated reader from an anonymous one.
 * Requests with credentials from an address with recent failed logins wait before they are checked (login-throttle).
 * A request carrying the peer header is another instance's forwarded query, authenticated by its proof alone
 * (peer-proof.ts), whose answer is signed; the proof admits it to the routes open to peers, nowhere else.
 */
import type { ServerResponse } from "node:http";
import type { Logger } from "../logger";
import { isRejection, type AuthOutcome, type Authenticator, type Rejection } from "./auth/authenticator";
import type { LoginThrottle } from "./auth/login-throttle";
import { PEER_ANSWER_HEADER, PEER_HEADER, type PeerSecret, type RequestProof } from "./auth/peer-proof";
import { ANONYMOUS, roleAllows, type Principal, type Role } from "./auth/principal";
import { HttpError } from "./http-error";
import type { SluiceRequest } from "./request";
import { sendError } from "./responses";
import { signAnswer } from "./signed-answer";

const PEER: Principal = Object.freeze({ name: "peer", role: "viewer", mechanism: "peer" });

export interface AccessGuardOptions {
  /** Undefined: `server.auth.mechanism=none`, every request is ANONYMOUS (an admin). */
  authenticator: Authenticator | undefined;
  /** The instance secret (`server.auth.peer.token.file`); undefined: no forwarded query is taken. */
  peerSecret: PeerSecret | undefined;
  publicPaths: readonly string[];
  throttle: LoginThrottle;
  logger: Logger;
}

const READS: ReadonlySet<string | undefined> = new Set(["GET", "HEAD"]);
const PEER_PROOF = Symbol("peer proof");
type ProvenRequest = SluiceRequest & { [PEER_PROOF]?: RequestProof };

export class AccessGuard {
  /** Paths built-in plugins serve to anyone for GET and HEAD (a trailing `/` makes a prefix): static files. */
  private readonly publicReads: string[] = [];

  constructor(private readonly options: AccessGuardOptions) {}

  get enabled(): boolean {
    return this.options.authenticator !== undefined;
  }

  /** Sets `req.principal` and calls `next`, or answers 401 (429, 503). A public read without credentials has no principal. */
  admit(req: SluiceRequest, res: ServerResponse, next: () => void): void {
    const { authenticator, throttle } = this.options;
    if (req.headers[PEER_HEADER] !== undefined && (authenticator || this.options.peerSecret)) return this.admitPeer(req, res, next);
    if (!authenticator) {
      req.principal = ANONYMOUS;
      return next();
    }
    if (req.method === "OPTIONS") return next();
    const publicRead = READS.has(req.method) && (this.isPublic(req.path) || this.publicReads.some((path) => coveredBy(req.path, path)));
    const settle = (result: AuthOutcome) => {
      if (!isRejection(result)) req.principal = result;
      else if (!(publicRead && !result.credentialsSent && !result.busy)) return this.reject(req, res, result, authenticator.scheme);
      next();
    };
    const failed = (error: unknown) => this.reject(req, res, { reason: `authentication failed: ${(error as Error).message}`, credentialsSent: true }, authenticator.scheme);
    const check = () => {
      if (req.socket.destroyed) return;
      let outcome: AuthOutcome | Promise<AuthOutcome>;
      try {
        outcome = authenticator.authenticate(req, req.source);
      } catch (error) {
        return failed(error);
      }
      if (outcome instanceof Promise) outcome.then(settle, failed);
      else settle(outcome);
    };
    const waitMs = req.headers.authorization === undefined ? 0 : throttle.delayOf(req.source);
    if (waitMs === 0) return check();
    if (!throttle.enter(req.source)) {
      return this.reject(req, res, { reason: "too many requests from this address are waiting after failed logins", credentialsSent: false, busy: { status: 429, retryAfterMs: waitMs } }, authenticator.scheme);
    }
    setTimeout(() => {
      throttle.leave(req.source);
      check();
    }, waitMs);
  }

  /** A peer's request, once its body is read: false (and a 401 sent) when the proof does not hold for it. */
  admitBody(req: SluiceRequest, res: ServerResponse): boolean {
    const proof = (req as ProvenRequest)[PEER_PROOF];
    if (proof === undefined || this.options.peerSecret!.verifyRequest(proof, req.rawBody)) return true;
    this.reject(req, res, { reason: "the peer proof does not hold for this request (wrong instance secret, or replayed)", credentialsSent: true }, this.scheme);
    return false;
  }

  /**
   * Throws a 403 when the request's principal may not use a route that needs `role`, or when it is another instance
   * and the route is not open to peers.
   */
  authorize(req: SluiceRequest, role: Role, openToPeers: boolean): void {
    const { principal } = req;
    if (principal === undefined) return;
    if (principal.mechanism === "peer" && !openToPeers) throw new HttpError(403, `${req.method} ${req.path} is not open to other instances: the instance secret admits forwarded queries only`);
    if (roleAllows(principal.role, role)) return;
    throw new HttpError(403, `${req.method} ${req.path} needs role '${role}'; '${principal.name}' has role '${principal.role}'`);
  }

  /** `/health` is public for `/health` and `/health/...`, not for `/healthz`; for GET and HEAD only. */
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

  private get scheme(): string {
    return this.options.authenticator?.scheme ?? "SluicePeer";
  }

  private admitPeer(req: SluiceRequest, res: ServerResponse, next: () => void): void {
    const secret = this.options.peerSecret;
    if (!secret) return this.reject(req, res, { reason: "this instance takes no forwarded queries: it has no instance secret (server.auth.peer.token.file)", credentialsSent: true }, this.scheme);
    const proof = secret.readRequest(String(req.headers[PEER_HEADER]), req.method ?? "", req.url ?? req.path);
    if (typeof proof === "string") return this.reject(req, res, { reason: proof, credentialsSent: true }, this.scheme);
    (req as ProvenRequest)[PEER_PROOF] = proof;
    req.principal = PEER;
    signAnswer(res, PEER_ANSWER_HEADER, (status, body) => secret.signAnswer(proof.nonce, status, body));
    next();
  }

  private reject(req: SluiceRequest, res: ServerResponse, rejection: Rejection, scheme: string): void {
    const { source } = req;
    const { busy } = rejection;
    if (busy) {
      if (rejection.credentialsSent) this.options.throttle.failed(source);
      this.options.logger.warn("authentication refused", { source, method: req.method, path: req.path, reason: rejection.reason, status: busy.status });
      res.setHeader("Retry-After", String(Math.max(1, Math.ceil(busy.retryAfterMs / 1000))));
      return sendError(res, busy.status, `Authentication refused: ${rejection.reason}`, req.path);
    }
    const answer = () => {
      res.setHeader("WWW-Authenticate", challenge(req, scheme, rejection));
      sendError(res, 401, `Authentication required: ${rejection.reason}`, req.path);
    };
    if (!rejection.credentialsSent) return answer();
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
