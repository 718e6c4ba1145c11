/**
 * POST /restart and DELETE|POST /stop (docs/api.md#restart-and-stop): synchronous, bounded by server.operation.timeout.ms,
 * 409 while the instance is already shutting down, 403 when the server is headless.
 */
import { type ApplicationHandle, type ApplicationLookup, conflict, HttpError, type RouteRegistrar, type SluiceRequest } from "sluice";
import { TIMED_OUT, withinDeadline } from "./operation-deadline";
import { instanceDescription } from "./streams-json";
import { LIFECYCLE_SPECS } from "./streams-route-specs";

export interface LifecycleOptions {
  headless: boolean;
  timeoutMs: number;
}

const BASE = "/api/v1/streams/:id";

export function registerLifecycleRoutes(routes: RouteRegistrar, lookup: ApplicationLookup, options: LifecycleOptions): void {
  const restart = (req: SluiceRequest) => {
    const application = changeable(req, lookup, options, "restart");
    return finish(application, "restart", application.restart({ timeoutMs: options.timeoutMs }), options.timeoutMs);
  };
  const stop = (req: SluiceRequest) => {
    const application = changeable(req, lookup, options, "stop");
    // Checked by the router against STOP_BODY_SCHEMA.
    const cleanup = (req.body as { cleanup?: boolean } | undefined)?.cleanup ?? false;
    return finish(application, "stop", application.stop({ cleanup, timeoutMs: options.timeoutMs }), options.timeoutMs);
  };
  routes.post(`${BASE}/restart`, restart, { spec: LIFECYCLE_SPECS.restart });
  routes.delete(`${BASE}/stop`, stop, { spec: LIFECYCLE_SPECS.stop });
  routes.post(`${BASE}/stop`, stop, { spec: LIFECYCLE_SPECS.stop });
}

/** 403 when the server is headless: no route changes what runs. */
export function refuseWhenHeadless(options: LifecycleOptions, operation: string): void {
  if (options.headless) throw new HttpError(403, `Cannot ${operation} applications: the server is headless (server.headless)`);
}

/** The application a lifecycle route changes: 403 headless, 404 unknown, 409 while it shuts down. */
export function changeable(req: SluiceRequest, lookup: ApplicationLookup, options: LifecycleOptions, operation: string): ApplicationHandle {
  refuseWhenHeadless(options, operation);
  const application = lookup.require(req.params.id);
  if (application.state === "PENDING_SHUTDOWN") {
    throw conflict(`Application '${application.id}' cannot ${operation} now: it is shutting down (PENDING_SHUTDOWN)`);
  }
  return application;
}

async function finish(application: ApplicationHandle, operation: string, work: Promise<void>, timeoutMs: number): Promise<Record<string, unknown>> {
  if ((await withinDeadline(work, timeoutMs)) === TIMED_OUT) {
    throw new HttpError(503, `Application '${application.id}' did not ${operation} within ${timeoutMs} ms (server.operation.timeout.ms); it is ${application.state}`);
  }
  return instanceDescription(application);
}
