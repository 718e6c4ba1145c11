/**
 * /api/v1/applications (API.md §2): the applications of this process, the servers of each across its consumer
 * group, its topology graph, and interactive queries on its stores through the query engines found in
 * `sluice.query.QueryEngine` descriptors.
 */
import type { ServerResponse } from "node:http";
import { SERVER_CONFIG } from "../../kernel/config/kernel-config";
import { JSON_RENDERER } from "../../kernel/contracts/json-serializer";
import { optional, type KernelInfo, type Plugin, type PluginContext } from "../../kernel/contracts/plugin";
import { PEER_TRANSPORT, type PeerTransport } from "../../kernel/contracts/peer-transport";
import { QUERY_ENGINE_CONTRACT } from "../../kernel/contracts/query-engine";
import { ApplicationLookup } from "../../kernel/contracts/streams/application-lookup";
import { PROCESS_METRICS, type ProcessMetrics } from "../../kernel/contracts/process-metrics";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle } from "../../kernel/contracts/streams/runtime";
import { notFound } from "../../kernel/http/http-error";
import type { SluiceRequest } from "../../kernel/http/request";
import type { Logger } from "../../kernel/logger";
import { topologyJson } from "../../kernel/contracts/streams/topology-json";
import { serversRecord } from "./application-views";
import { QueryCatalog } from "./query-catalog";
import { executeQuery } from "./query-execution";
import { parseQueryRequest, type QueryBody } from "./query-request";
import { applicationsSpecs } from "./applications-route-specs";
import type { QueryStatus } from "./query-response-writer";
import { QueryTargets } from "./query-targets";

const BASE = "/api/v1/applications";

export class ApplicationsApiPlugin implements Plugin {
  readonly requires = [JSON_RENDERER, optional(STREAMS_RUNTIME_TOKEN), optional(PEER_TRANSPORT), optional(PROCESS_METRICS)];
  private lookup!: ApplicationLookup;
  private kernel!: KernelInfo;
  private logger!: Logger;
  private catalog!: QueryCatalog;
  private targets!: QueryTargets;
  private defaultTimeoutMs = 30_000;
  private peers!: PeerTransport;
  /** Where query durations are recorded, when a plugin provides process metrics. */
  private metrics: ProcessMetrics | undefined;

  async configure({ routes, components, config, kernel, logger, services }: PluginContext): Promise<void> {
    this.lookup = new ApplicationLookup(components);
    this.kernel = kernel;
    this.logger = logger;
    this.defaultTimeoutMs = config.of(SERVER_CONFIG).get("query.timeout.ms");
    // `application.server` is fixed for an application's lifetime, and reading its config view is not free.
    const serverOf = (application: ApplicationHandle) => String(application.config()["application.server"] ?? this.kernel.advertisedAddress() ?? "");
    this.targets = new QueryTargets(components.resolve(JSON_RENDERER), serverOf);
    this.catalog = new QueryCatalog(await services.load(QUERY_ENGINE_CONTRACT));
    // Without the HTTP server (server.enable=false) there is no transport, and no route that would use one.
    const peers = components.resolveOptional(PEER_TRANSPORT);
    if (peers) this.peers = peers;
    this.metrics = components.resolveOptional(PROCESS_METRICS);
    const specs = applicationsSpecs(this.catalog);
    routes.get(BASE, () => this.lookup.ids(), { spec: specs.ids });
    routes.get(
      `${BASE}/:id`,
      async (req) => {
        const application = this.lookup.require(req.params.id);
        return serversRecord(application.id, await application.instances());
      },
      { spec: specs.servers },
    );
    routes.get(`${BASE}/:id/topology`, (req) => topologyJson(this.lookup.require(req.params.id).topology()), { spec: specs.topology });
    // A query reads: viewers may run it, though it is a POST; other instances forward queries to it.
    routes.post(`${BASE}/:id/stores/:name`, (req, res) => this.query(req, res), { role: "viewer", openToPeers: true, spec: specs.query });
  }

  private query(req: SluiceRequest, res: ServerResponse): Promise<unknown> {
    const startedAt = Date.now();
    const began = performance.now();
    const application = this.lookup.require(req.params.id);
    const target = this.targets.of(application, req.params.name);
    if (!target) throw notFound(`Unknown store '${req.params.name}' in application '${application.id}'`);
    // Its shape was checked by the router against the route's body schema.
    const request = parseQueryRequest(req.body as QueryBody, target.store, application.id, this.catalog, this.defaultTimeoutMs);
    const answered = executeQuery({ target, request, startedAt, logger: this.logger, peers: this.peers }, res);
    return this.metrics ? recordQuery(this.metrics, answered, target.store.type, began) : answered;
  }
}

/**
 * Records the query's duration and status once its answer is written; resolves with nothing, since the answer went
 * out already. A query cut by an error is FAILED (and rejects as before).
 */
function recordQuery(metrics: ProcessMetrics, answered: Promise<QueryStatus>, storeType: string, began: number): Promise<void> {
  const record = (status: string) => metrics.query(storeType, status, (performance.now() - began) / 1000);
  return answered.then(
    (status) => record(status),
    (error: unknown) => {
      record("FAILED");
      throw error;
    },
  );
}
