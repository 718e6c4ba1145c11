/**
 * The one router every route goes through — built-in plugins and REST extensions alike: it records who owns
 * each method + path (so a second owner, or a REST extension route that overlaps another owner's, is a startup
 * error naming both), checks the caller's role against the route's (403), writes an audit line for each
 * state-changing call, answers HEAD on every GET route, URL-decodes parameters, validates a request body against the
 * schema its route declares, sends a handler's return value as JSON and turns thrown errors into the error shape of
 * docs/api.md#conventions. Its listing of the routes, with their declarations, is what /api/v1/openapi.json is built from.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { StartupError } from "../errors";
import type { Logger } from "../logger";
import type { AccessGuard } from "./access-guard";
import { isRole, ROLES, type Role } from "./auth/principal";
import { HttpError } from "./http-error";
import { UNMATCHED_ROUTE } from "../contracts/process-metrics";
import { routePatternsOverlap } from "./route-overlap";
import { validatedJsonBody, type SluiceRequest } from "./request";
import { assertRouteSpec, type BodySpec, type RouteSpec } from "./route-spec";
import { sendError, sendJson } from "./responses";

export type RouteHandler = (req: SluiceRequest, res: ServerResponse) => unknown;

export interface RouteOptions {
  /**
   * The least role that may use the route. Default: viewer for GET and HEAD, operator for the other methods.
   * There is no public role: only `server.auth.public.paths` makes a path public.
   */
  role?: Role;
  /**
   * Served without authentication, for GET and HEAD: static files that hold no data, such as the console's page
   * and scripts, which must load before anyone can log in. Built-in plugins only, on a static path or a path
   * ending in `/*`; a REST extension's route is never public.
   */
  public?: boolean;
  /**
   * Other instances' forwarded requests (the instance secret's proof) may use the route: interactive queries. The
   * proof admits them nowhere else.
   */
  openToPeers?: boolean;
  /**
   * What the route takes and answers. Its body schema is checked before the handler runs (a 400 naming the field
   * otherwise); the whole declaration describes the route in /api/v1/openapi.json. Undeclared, the route is listed
   * there with its method, path and parameters only.
   */
  spec?: RouteSpec;
}

export interface RouteRegistrar {
  get(path: string, handler: RouteHandler, options?: RouteOptions): void;
  post(path: string, handler: RouteHandler, options?: RouteOptions): void;
  put(path: string, handler: RouteHandler, options?: RouteOptions): void;
  patch(path: string, handler: RouteHandler, options?: RouteOptions): void;
  delete(path: string, handler: RouteHandler, options?: RouteOptions): void;
}

export const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof ROUTE_METHODS)[number];
const READ_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD"]);

interface RouteOwner {
  name: string;
  builtIn: boolean;
}

interface RegisteredRoute {
  method: Method;
  path: string;
  owner: RouteOwner;
}

/** A route as the registry lists it: everything its registration declared, read-only. */
export interface RouteListing {
  readonly method: Method;
  /** The router's pattern: `/api/v1/streams/:id`, `/ui/*`. */
  readonly path: string;
  readonly owner: Readonly<RouteOwner>;
  readonly role: Role;
  /** Whether a request needs credentials: authentication is on and neither the route nor (for a read) its path is public. */
  readonly authenticated: boolean;
  /** Other instances' forwarded requests may use it. */
  readonly openToPeers: boolean;
  readonly spec: RouteSpec | undefined;
}

/**
 * What the registry asks of the HTTP router (polka's), by its shape: Sluice's published declarations then name no
 * type of polka, which has none of its own.
 */
export interface RouteTable {
  add(method: string, pattern: string, handler: (req: IncomingMessage, res: ServerResponse) => void): unknown;
  find(method: string, url: string): false | { handlers: readonly unknown[] };
}

const describeOwner = (owner: RouteOwner) => `${owner.builtIn ? "built-in" : "REST extension"} '${owner.name}'`;

interface RouteAccess {
  /** The route's pattern, as the metrics know it. */
  pattern: string;
  role: Role;
  openToPeers: boolean;
  /** Routes above viewer change state: each use is an audit log line. */
  audited: boolean;
  /** The body the route declares, checked before its handler runs. */
  body: BodySpec | undefined;
}

export class RouteRegistry {
  private readonly owners = new Map<string, RouteOwner>();
  private readonly listing: RouteListing[] = [];
  /** The pattern of each route's dispatching function, as the router finds it. */
  private readonly patterns = new Map<unknown, string>();

  constructor(private readonly app: RouteTable, private readonly logger: Logger, private readonly guard: AccessGuard, private readonly audit: Logger) {}

  /** A registrar whose routes are recorded as owned by `owner`. */
  registrar(owner: RouteOwner): RouteRegistrar {
    const add = (method: Method) => (path: string, handler: RouteHandler, options?: RouteOptions) => this.add(owner, method, path, handler, options);
    return { get: add("GET"), post: add("POST"), put: add("PUT"), patch: add("PATCH"), delete: add("DELETE") };
  }

  /** Every route registered so far, in registration order. */
  routes(): readonly RouteListing[] {
    return [...this.listing];
  }

  /** Methods that have a route matching `path` (for 405 answers). */
  methodsFor(path: string): Method[] {
    return ROUTE_METHODS.filter((method) => this.app.find(method, path) !== false);
  }

  /**
   * The pattern of the route matching `path`, by `method` or else by any method (a 405, an OPTIONS), or
   * UNMATCHED_ROUTE: for requests answered before the router dispatched them (401, 413, 404, 405, OPTIONS).
   */
  patternOf(method: string, path: string): string {
    for (const candidate of [method, ...ROUTE_METHODS]) {
      const found = this.app.find(candidate, path);
      const pattern = found ? this.patterns.get(found.handlers[0]) : undefined;
      if (pattern !== undefined) return pattern;
    }
    return UNMATCHED_ROUTE;
  }

  private add(owner: RouteOwner, method: Method, path: string, handler: RouteHandler, options: RouteOptions = {}): void {
    const key = `${method} ${path.replace(/:[^/]+/g, ":")}`;
    const existing = this.owners.get(key);
    if (existing) {
      throw new StartupError(`${describeOwner(owner)} cannot register ${method} ${path}: the route belongs to ${describeOwner(existing)}`);
    }
    // A JavaScript extension may pass anything: a role that is not one would otherwise never be refused.
    if (options.role !== undefined && !isRole(options.role)) {
      throw new StartupError(`${owner.name} cannot register ${method} ${path} with role '${String(options.role)}': roles are ${ROLES.join(", ")}`);
    }
    if (options.spec) this.checkSpec(owner, method, path, options.spec);
    if (options.public) this.allowPublic(owner, method, path);
    this.refuseShadowing({ method, path, owner });
    this.owners.set(key, owner);
    const role = options.role ?? (READ_METHODS.has(method) ? "viewer" : "operator");
    const authenticated = this.guard.enabled && !options.public && !(READ_METHODS.has(method) && this.guard.isPublic(path));
    const openToPeers = options.openToPeers === true;
    this.listing.push(Object.freeze({ method, path, owner: Object.freeze({ ...owner }), role, authenticated, openToPeers, spec: options.spec }));
    const access: RouteAccess = { pattern: path, role, openToPeers, audited: role !== "viewer", body: options.spec?.body };
    this.route(method, path, (req, res) => this.dispatch(handler, access, req as SluiceRequest, res));
    if (method === "GET") this.route("HEAD", path, (req, res) => this.dispatch(headOf(handler), access, req as SluiceRequest, res));
  }

  private route(method: string, path: string, dispatching: (req: IncomingMessage, res: ServerResponse) => void): void {
    this.patterns.set(dispatching, path);
    this.app.add(method, path, dispatching);
  }

  private checkSpec(owner: RouteOwner, method: Method, path: string, spec: RouteSpec): void {
    try {
      assertRouteSpec(spec, path);
    } catch (error) {
      throw new StartupError(`${describeOwner(owner)} cannot register ${method} ${path}: its spec ${(error as Error).message}`);
    }
  }

  private allowPublic(owner: RouteOwner, method: Method, path: string): void {
    const prefix = path.endsWith("/*") ? path.slice(0, -1) : path;
    if (!owner.builtIn || method !== "GET" || prefix.includes(":") || prefix.includes("*")) {
      throw new StartupError(`${describeOwner(owner)} cannot register ${method} ${path} as public: only a built-in plugin's GET route on a static path or one ending in /* may be`);
    }
    this.guard.allowPublicReads(prefix);
  }

  /**
   * The router takes the first route that matches, so of two overlapping patterns (`/api/v1/streams/:id` and
   * `/api/v1/streams/special`) one never sees the paths they share — whichever registered first. Built-in
   * routes overlap only by design (their plugins are known together); a REST extension's route that overlaps
   * a route of another owner is refused, whatever the order. An owner's own overlapping routes are its choice.
   */
  private refuseShadowing(route: RegisteredRoute): void {
    const clash = this.listing.find(
      (other) =>
        other.method === route.method &&
        other.owner.name !== route.owner.name &&
        (!other.owner.builtIn || !route.owner.builtIn) &&
        routePatternsOverlap(other.path, route.path),
    );
    if (!clash) return;
    throw new StartupError(
      `${describeOwner(route.owner)} cannot register ${route.method} ${route.path}: it overlaps ${clash.method} ${clash.path} of ${describeOwner(clash.owner)}, ` +
        "and the router would send the paths they share to only one of them",
    );
  }

  // Not an async function: a handler that answers at once (most do) costs no promise, and one that answers a
  // promise costs one reaction instead of an async frame and an await on every request.
  private dispatch(handler: RouteHandler, access: RouteAccess, req: SluiceRequest, res: ServerResponse): void {
    let result: unknown;
    req.route = access.pattern;
    try {
      decodeParams(req);
      if (access.audited) res.once("close", () => this.recordOperation(req, res));
      this.guard.authorize(req, access.role, access.openToPeers);
      if (access.body) req.body = validatedJsonBody(req, access.body);
      // Before it acts: an operation that takes the process down is still on record.
      if (access.audited) this.audit.info("operation requested", { ...this.who(req), body: auditedBody(req) });
      result = handler(req, res);
    } catch (error) {
      this.fail(error, req, res);
      return;
    }
    if (isThenable(result)) {
      result.then(
        (value) => this.answer(value, req, res),
        (error: unknown) => this.fail(error, req, res),
      );
    } else {
      this.answer(result, req, res);
    }
  }

  /** A handler's return value as the JSON answer, unless it answered itself. */
  private answer(result: unknown, req: SluiceRequest, res: ServerResponse): void {
    try {
      if (result !== undefined && !res.headersSent) sendJson(res, 200, result);
    } catch (error) {
      this.fail(error, req, res);
    }
  }

  /** The audit line of a state-changing operation once it ended: who, what, on which application, and how. */
  private recordOperation(req: SluiceRequest, res: ServerResponse): void {
    const answered = res.writableFinished;
    this.audit.info("operation", { ...this.who(req), status: answered ? res.statusCode : null, ...(answered ? {} : { outcome: "the client closed the connection before the answer" }) });
  }

  private who(req: SluiceRequest) {
    const { principal } = req;
    return { principal: principal?.name, mechanism: principal?.mechanism, source: req.source, method: req.method, path: req.path, application: req.params.id };
  }

  fail(error: unknown, req: SluiceRequest, res: ServerResponse): void {
    if (error instanceof HttpError) {
      sendError(res, error.status, error.message, req.path);
      return;
    }
    this.logger.error("request failed", { method: req.method, path: req.path, source: req.source, error });
    sendError(res, 500, "Internal server error", req.path);
  }
}

/**
 * HEAD runs the GET handler, so status and headers (Content-Length included) are exactly the GET's; Node's
 * server drops the body of a HEAD response. An answer that streams (server-sent events) is ended as soon as
 * its head is written, which also releases the subscription it opened.
 */
function headOf(get: RouteHandler): RouteHandler {
  const endStreamedHead = (value: unknown, res: ServerResponse) => {
    if (value === undefined && res.headersSent && !res.writableEnded) res.end();
    return value;
  };
  return (req, res) => {
    const result = get(req, res);
    return isThenable(result) ? result.then((value) => endStreamedHead(value, res)) : endStreamedHead(result, res);
  };
}

/** Audit lines keep the body of an operation (what was deployed, the level set), secrets hidden by the logger; not a large one. */
const AUDITED_BODY_BYTES = 16_384;
const auditedBody = (req: SluiceRequest): unknown => (req.rawBody.length === 0 ? undefined : req.rawBody.length > AUDITED_BODY_BYTES ? { bytes: req.rawBody.length } : req.body);

const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === "object" && value !== null && typeof (value as PromiseLike<unknown>).then === "function";

/** URL-decodes the route parameters in place (the router makes a params object per request). */
function decodeParams(req: SluiceRequest): void {
  if (!req.params) {
    req.params = {};
    return;
  }
  for (const name in req.params) {
    const value = req.params[name];
    if (!value.includes("%")) continue;
    try {
      req.params[name] = decodeURIComponent(value);
    } catch {
      throw new HttpError(400, `Path parameter '${name}' is not valid URL encoding: '${value}'`);
    }
  }
}
