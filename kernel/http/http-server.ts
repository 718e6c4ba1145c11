/**
 * The embedded HTTP(S) server: polka, TLS with certificates reloadable in place, authentication before the
 * body limit, security and CORS headers, compressed answers, request logging and metrics, OPTIONS with `Allow`, and
 * JSON 404/405 for unmatched paths.
 */
import http, { type ServerResponse } from "node:http";
import https from "node:https";
import { createSecureContext } from "node:tls";
import type { AddressInfo } from "node:net";
import polka = require("polka");
import { StartupError } from "../errors";
import type { ProcessMetrics } from "../contracts/process-metrics";
import type { Logger } from "../logger";
import { HttpError } from "./http-error";
import type { HttpSecurity } from "./http-security";
import { EMPTY_BODY, readBody, type SluiceRequest } from "./request";
import { CompressibleResponse } from "./response-compression";
import { sendError } from "./responses";
import { RouteRegistry } from "./route-registry";
import { securityHeaders } from "./security-headers";
import { secureContextOf, serverTlsOptions } from "./tls-settings";

export interface HttpServerOptions {
  bodyLimit: number;
  logger: Logger;
  security: HttpSecurity;
  /** Answers of at least this many bytes are compressed for clients that accept it; undefined: never. */
  compressionThreshold?: number;
}

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH", "DELETE"]);

export class HttpServer {
  readonly routes: RouteRegistry;
  private readonly app: ReturnType<typeof polka>;
  private readonly server: http.Server;
  private address: { host: string; port: number } | undefined;
  private readonly requestFinished: (this: ServerResponse) => void;
  private readonly addSecurityHeaders: (res: ServerResponse) => void;
  private metrics: ProcessMetrics | undefined;

  constructor(private readonly options: HttpServerOptions) {
    this.requestFinished = finishedRequestReporter(options.logger, () => this.metrics, (method, path) => this.routes.patternOf(method, path));
    const { security } = options;
    this.addSecurityHeaders = securityHeaders(security.tls !== undefined);
    this.app = polka({
      onNoMatch: (req, res) => this.noMatch(req as SluiceRequest, res),
      onError: (error, req, res) => this.routes.fail(error, req as SluiceRequest, res),
    });
    this.routes = new RouteRegistry(this.app, options.logger, security.guard, options.logger.child({ component: "audit" }));
    this.app.use((req, res, next) => this.prepare(req as SluiceRequest, res, next));
    const handler = this.app.handler as http.RequestListener;
    const responses = options.compressionThreshold === undefined ? {} : { ServerResponse: CompressibleResponse };
    this.server = security.tls ? https.createServer({ ...tlsOptionsOrFail(security), ...responses }, handler) : http.createServer(responses, handler);
  }

  get protocol(): "http" | "https" {
    return this.options.security.tls ? "https" : "http";
  }

  /** Records every answered request into `metrics` from now on. */
  recordInto(metrics: ProcessMetrics): void {
    this.metrics = metrics;
  }

  /** Reads the certificate files again: new connections get them, open ones keep theirs (SIGHUP). */
  reloadCertificates(): void {
    const { tls } = this.options.security;
    if (!tls) return;
    (this.server as https.Server).setSecureContext(secureContextOf(tls));
  }

  async listen(host: string, port: number): Promise<{ host: string; port: number }> {
    await new Promise<void>((resolve, reject) => {
      const onError = (error: NodeJS.ErrnoException) => {
        const reason = error.code === "EADDRINUSE" ? "the address is already in use" : error.message;
        reject(new StartupError(`HTTP server cannot listen on ${host}:${port}: ${reason} (server.listener / server.port)`, { cause: error }));
      };
      this.server.once("error", onError);
      this.server.listen(port, host, () => {
        this.server.off("error", onError);
        resolve();
      });
    });
    const bound = this.server.address() as AddressInfo;
    this.address = { host, port: bound.port };
    return this.address;
  }

  /** Stops accepting connections and ends the open ones (keep-alive and streaming responses). */
  async close(): Promise<void> {
    if (!this.server.listening) return;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private prepare(req: SluiceRequest, res: ServerResponse, next: (error?: unknown) => void): void {
    req.receivedAt = performance.now();
    req.source = req.socket.remoteAddress ?? "unknown";
    res.on("finish", this.requestFinished);
    if (this.options.compressionThreshold !== undefined) (res as CompressibleResponse).compressFor(req.headers["accept-encoding"], this.options.compressionThreshold);
    this.addSecurityHeaders(res);
    this.options.security.cors?.decorate(req, res);
    this.options.security.guard.admit(req, res, () => this.readBodyThen(req, res, next));
  }

  private readBodyThen(req: SluiceRequest, res: ServerResponse, next: (error?: unknown) => void): void {
    if (!METHODS_WITH_BODY.has(req.method ?? "")) {
      req.rawBody = EMPTY_BODY;
      if (this.options.security.guard.admitBody(req, res)) next();
      return;
    }
    readBody(req, this.options.bodyLimit, (error, body) => {
      if (error === undefined) {
        req.rawBody = body!;
        if (this.options.security.guard.admitBody(req, res)) next();
        return;
      }
      if (error instanceof HttpError) res.setHeader("Connection", "close");
      next(error);
    });
  }

  private noMatch(req: SluiceRequest, res: ServerResponse): void {
    const allowed = this.routes.methodsFor(req.path);
    if (req.method === "OPTIONS" && allowed.length > 0) {
      const methods = [...allowed, "OPTIONS"];
      res.setHeader("Allow", methods.join(", "));
      this.options.security.cors?.preflight(req, res, methods);
      res.writeHead(204).end();
      return;
    }
    if (allowed.length > 0) {
      res.setHeader("Allow", allowed.join(", "));
      sendError(res, 405, `Method ${req.method} is not allowed on ${req.path}; allowed: ${allowed.join(", ")}`, req.path);
      return;
    }
    sendError(res, 404, `No route for ${req.method} ${req.path}`, req.path);
  }
}

function tlsOptionsOrFail(security: HttpSecurity): https.ServerOptions {
  const tls = security.tls!;
  const options = serverTlsOptions(tls);
  try {
    // Creating a context checks that the key and the certificates parse and belong together.
    createSecureContext(options);
  } catch (error) {
    throw new StartupError(`TLS files ${tls.key} (server.ssl.key.location) and ${tls.certificate} (server.ssl.certificate.location) are not a usable PEM key and certificate: ${(error as Error).message}`, { cause: error });
  }
  return options;
}

/**
 * One 'finish' listener for every response (a closure per request would cost each one an allocation): the request's
 * duration into the metrics, by the route the router dispatched it to, and its debug log line.
 */
function finishedRequestReporter(
  logger: Logger,
  metrics: () => ProcessMetrics | undefined,
  patternOf: (method: string, path: string) => string,
): (this: ServerResponse) => void {
  return function requestFinished(this: ServerResponse): void {
    const req = this.req as SluiceRequest;
    const ms = performance.now() - req.receivedAt;
    const method = req.method ?? "";
    metrics()?.httpRequest(method, req.route ?? patternOf(method, req.path), this.statusCode, ms / 1000);
    if (logger.isLevelEnabled("debug")) logger.debug("request", { method, path: req.path, source: req.source, status: this.statusCode, ms: Math.round(ms * 100) / 100 });
  };
}
