/**
 * Deploy (POST /api/v1/streams), terminate (DELETE /api/v1/streams/{id}), pause and resume
 * (POST /api/v1/streams/{id}/pause|resume), through the runtime's StreamsDeployments; 403 when headless.
 */
import type { ServerResponse } from "node:http";
import {
  type ApplicationLookup,
  type ComponentRegistry,
  type DeployRequest,
  HttpError,
  notFound,
  type RouteRegistrar,
  sendJson,
  type SluiceRequest,
  STREAMS_DEPLOYMENTS_TOKEN,
  type StreamsDeployments,
} from "sluice";
import { changeable, refuseWhenHeadless, type LifecycleOptions } from "./lifecycle-routes";
import { TIMED_OUT, withinDeadline } from "./operation-deadline";
import { instanceDescription } from "./streams-json";
import { DEPLOYMENT_SPECS as SPECS } from "./streams-route-specs";

const BASE = "/api/v1/streams";

export function registerDeploymentRoutes(routes: RouteRegistrar, lookup: ApplicationLookup, components: ComponentRegistry, options: LifecycleOptions): void {
  const deployments = (): StreamsDeployments => {
    const found = components.resolveOptional(STREAMS_DEPLOYMENTS_TOKEN);
    if (!found) throw notFound("No streams runtime is installed: nothing can be deployed");
    return found;
  };
  // Bodies are checked by the router against DEPLOY_BODY_SCHEMA and STOP_BODY_SCHEMA; the runtime checks the names and
  // the configuration against what it knows.
  routes.post(
    BASE,
    async (req: SluiceRequest, res: ServerResponse) => {
      refuseWhenHeadless(options, "deploy");
      const application = await deployments().deploy(req.body as DeployRequest, req.principal);
      sendJson(res, 201, { id: application.id });
    },
    { spec: SPECS.deploy },
  );
  routes.delete(
    `${BASE}/:id`,
    async (req: SluiceRequest) => {
      refuseWhenHeadless(options, "terminate");
      const cleanup = (req.body as { cleanup?: boolean } | undefined)?.cleanup ?? false;
      const id = lookup.require(req.params.id).id;
      if ((await withinDeadline(deployments().terminate(id, { cleanup, timeoutMs: options.timeoutMs }), options.timeoutMs)) === TIMED_OUT) {
        throw new HttpError(503, `Application '${id}' did not terminate within ${options.timeoutMs} ms (server.operation.timeout.ms); it is being removed`);
      }
      return { id, cleanup };
    },
    { spec: SPECS.terminate },
  );
  routes.post(`${BASE}/:id/pause`, async (req: SluiceRequest) => instanceDescription(await deployments().pause(changeable(req, lookup, options, "pause").id)), { spec: SPECS.pause });
  routes.post(`${BASE}/:id/resume`, async (req: SluiceRequest) => instanceDescription(await deployments().resume(changeable(req, lookup, options, "resume").id)), { spec: SPECS.resume });
}
