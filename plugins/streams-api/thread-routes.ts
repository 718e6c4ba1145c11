/**
 * POST / DELETE /api/v1/streams/{id}/threads (docs/api.md#streams): add a stream thread to a running instance, or
 * remove one, as KafkaStreams#addStreamThread and #removeStreamThread do; 200 {"thread": name}. Operator role.
 */
import { type ApplicationHandle, type ApplicationLookup, conflict, notFound, type RouteRegistrar, type SluiceRequest } from "sluice";
import { changeable, type LifecycleOptions } from "./lifecycle-routes";
import { THREAD_SPECS } from "./streams-route-specs";

const BASE = "/api/v1/streams/:id/threads";

export function registerThreadRoutes(routes: RouteRegistrar, lookup: ApplicationLookup, options: LifecycleOptions): void {
  routes.post(
    BASE,
    async (req: SluiceRequest) => {
      const application = running(changeable(req, lookup, options, "add a stream thread"), "add a stream thread");
      const thread = await application.addStreamThread();
      if (thread === null) throw notRunning(application, "add a stream thread");
      return { thread };
    },
    { spec: THREAD_SPECS.add },
  );
  routes.delete(
    BASE,
    async (req: SluiceRequest) => {
      const application = running(changeable(req, lookup, options, "remove a stream thread"), "remove a stream thread");
      // Checked by the router against THREAD_BODY_SCHEMA.
      const name = (req.body as { thread?: string } | undefined)?.thread;
      const threads = application.streamThreads();
      if (name !== undefined && !threads.includes(name)) throw notFound(`Application '${application.id}' has no stream thread '${name}' (it has ${threads.join(", ")})`);
      if (threads.length === 1) throw conflict(`'${threads[0]}' is the last stream thread of application '${application.id}': stop the application instead`);
      const thread = await application.removeStreamThread(name);
      if (thread === null) throw notRunning(application, "remove a stream thread");
      return { thread };
    },
    { spec: THREAD_SPECS.remove },
  );
}

function running(application: ApplicationHandle, operation: string): ApplicationHandle {
  if (application.state !== "RUNNING" && application.state !== "REBALANCING") throw notRunning(application, operation);
  return application;
}

function notRunning(application: ApplicationHandle, operation: string): Error {
  return conflict(`Application '${application.id}' cannot ${operation}: it is ${application.state}, not RUNNING or REBALANCING`);
}
