/** The read-only endpoints of docs/api.md#streams: ids, description, status, config, offsets, topology, subscriptions, stores. */
import { type ApplicationLookup, type RouteRegistrar, topologyJson } from "sluice";
import { storesJson } from "./stores-json";
import { instanceDescription, offsetsJson, statusJson } from "./streams-json";
import { STREAMS_READ_SPECS as SPECS } from "./streams-route-specs";

const BASE = "/api/v1/streams";

export function registerReadRoutes(routes: RouteRegistrar, lookup: ApplicationLookup): void {
  const application = (id: string) => lookup.require(id);
  routes.get(BASE, () => lookup.ids(), { spec: SPECS.ids });
  routes.get(`${BASE}/:id`, (req) => instanceDescription(application(req.params.id)), { spec: SPECS.description });
  routes.get(`${BASE}/:id/status`, (req) => statusJson(application(req.params.id).status()), { spec: SPECS.status });
  routes.get(`${BASE}/:id/config`, (req) => application(req.params.id).config(), { spec: SPECS.config });
  routes.get(`${BASE}/:id/offsets`, async (req) => offsetsJson(await application(req.params.id).offsets()), { spec: SPECS.offsets });
  routes.get(`${BASE}/:id/topology`, (req) => topologyJson(application(req.params.id).topology()), { spec: SPECS.topology });
  routes.get(`${BASE}/:id/subscriptions`, (req) => application(req.params.id).eventStreams().map((declaration) => declaration.type).sort(), { spec: SPECS.subscriptions });
  routes.get(`${BASE}/:id/stores`, (req) => storesJson(application(req.params.id)), { spec: SPECS.stores });
}
