/**
 * /api/v1/applications (docs/api.md, "Applications"): the applications of this process, the servers of each across its
 * consumer group, its topology graph, and interactive queries on its stores through the query engines found in
 * `sluice.query.QueryEngine` descriptors — over REST, and in the process for plugins and REST extensions
 * (INTERACTIVE_QUERIES).
 */
import {
  configSection,
  APPLICATION_LOOKUP,
  type ApplicationHandle,
  INTERACTIVE_QUERIES,
  JSON_RENDERER,
  optional,
  PEER_TRANSPORT,
  type Plugin,
  type PluginContext,
  PROCESS_METRICS,
  QUERY_ENGINE_CONTRACT,
  STREAMS_RUNTIME_TOKEN,
  topologyJson,
} from "sluice";
import type { QueryBody } from "./query-request";
import { serversRecord } from "./application-views";
import { QueryCatalog } from "./query-catalog";
import { applicationsSpecs } from "./applications-route-specs";
import { HttpAnswer } from "./query-response-writer";
import { QueryTargets } from "./query-targets";
import { StoreQueries } from "./store-queries";

const BASE = "/api/v1/applications";

/** The plugin's sub-section of `server`. */
export const QUERY_CONFIG = configSection({
  name: "server.query",
  doc: "Interactive queries (`POST /api/v1/applications/{id}/stores/{store}`).",
  keys: {
    "timeout.ms": { type: "integer", default: 30_000, doc: "Default query_timeout_ms of interactive queries." },
  },
});

export class ApplicationsApiPlugin implements Plugin {
  readonly configSections = [QUERY_CONFIG];
  readonly requires = [JSON_RENDERER, optional(STREAMS_RUNTIME_TOKEN), optional(PEER_TRANSPORT), optional(PROCESS_METRICS)];
  readonly provides = [INTERACTIVE_QUERIES];

  async configure({ routes, components, config, kernel, logger, services }: PluginContext): Promise<void> {
    const lookup = components.resolve(APPLICATION_LOOKUP);
    // `application.server` is fixed for an application's lifetime, and reading its config view is not free.
    const serverOf = (application: ApplicationHandle) => String(application.config()["application.server"] ?? kernel.advertisedAddress() ?? "");
    const catalog = new QueryCatalog(await services.load(QUERY_ENGINE_CONTRACT));
    const specs = applicationsSpecs(catalog);
    const queries = new StoreQueries({
      lookup,
      targets: new QueryTargets(components.resolve(JSON_RENDERER), serverOf),
      catalog,
      bodySchema: specs.query.body.schema,
      defaultTimeoutMs: config.of(QUERY_CONFIG).get("timeout.ms"),
      logger,
      // Without the HTTP server (server.enable=false) there is no transport: other instances cannot be asked.
      peers: components.resolveOptional(PEER_TRANSPORT),
      metrics: components.resolveOptional(PROCESS_METRICS),
    });
    components.register(INTERACTIVE_QUERIES, { useValue: queries });
    routes.get(BASE, () => lookup.ids(), { spec: specs.ids });
    routes.get(
      `${BASE}/:id`,
      async (req) => {
        const application = lookup.require(req.params.id);
        return serversRecord(application.id, await application.instances());
      },
      { spec: specs.servers },
    );
    routes.get(`${BASE}/:id/topology`, (req) => topologyJson(lookup.require(req.params.id).topology()), { spec: specs.topology });
    // A query reads: viewers may run it, though it is a POST; other instances forward queries to it. Its shape was
    // checked by the router against the route's body schema.
    routes.post(`${BASE}/:id/stores/:name`, (req, res) => queries.run(req.params.id, req.params.name, req.body as QueryBody, new HttpAnswer(res)), {
      role: "viewer",
      openToPeers: true,
      spec: specs.query,
    });
  }
}
