/**
 * /api/v1/applications (API.md §2): the applications of this process, the servers of each across its consumer
 * group, its topology graph, and interactive queries on its stores through the query engines found in
 * `sluice.query.QueryEngine` descriptors.
 */
import type { ServerResponse } from "node:http";
import type { DependencyContainer } from "tsyringe";
import { JSON_RENDERER, type JsonRenderer } from "../../kernel/contracts/json-serializer";
import type { KernelInfo, Plugin, PluginContext } from "../../kernel/contracts/plugin";
import { QUERY_ENGINE_CONTRACT, type QueryEngine } from "../../kernel/contracts/query-engine";
import type { ApplicationRegistry } from "../../kernel/contracts/streams/application-registry";
import { STREAMS_RUNTIME_TOKEN, type ApplicationHandle } from "../../kernel/contracts/streams/runtime";
import { notFound } from "../../kernel/http/http-error";
import { jsonBody, type SluiceRequest } from "../../kernel/http/request";
import type { Logger } from "../../kernel/logger";
import { topologyJson } from "../../kernel/contracts/streams/topology-json";
import { serversRecord } from "./application-views";
import { QueryCatalog } from "./query-catalog";
import { executeQuery } from "./query-execution";
import { parseQueryRequest } from "./query-request";

const BASE = "/api/v1/applications";

export class ApplicationsApiPlugin implements Plugin {
  private components!: DependencyContainer;
  private kernel!: KernelInfo;
  private logger!: Logger;
  private catalog!: QueryCatalog;
  private renderer!: JsonRenderer;
  private defaultTimeoutMs = 30_000;
  /** Each application's `application.server`: fixed for its lifetime, and reading its config view is not free. */
  private readonly servers = new WeakMap<ApplicationHandle, string>();

  async configure({ routes, components, config, kernel, logger, services }: PluginContext): Promise<void> {
    this.components = components;
    this.kernel = kernel;
    this.logger = logger;
    this.defaultTimeoutMs = config.number("server.query.timeout.ms");
    this.renderer = components.resolve<JsonRenderer>(JSON_RENDERER);
    this.catalog = new QueryCatalog(await services.load<QueryEngine>(QUERY_ENGINE_CONTRACT));
    routes.get(BASE, () => this.registry()?.applications().map((application) => application.id) ?? []);
    routes.get(`${BASE}/:id`, async (req) => {
      const application = this.application(req);
      return serversRecord(application.id, await application.instances());
    });
    routes.get(`${BASE}/:id/topology`, (req) => topologyJson(this.application(req).topology()));
    routes.post(`${BASE}/:id/stores/:name`, (req, res) => this.query(req, res));
  }

  private async query(req: SluiceRequest, res: ServerResponse): Promise<void> {
    const startedAt = Date.now();
    const application = this.application(req);
    const store = application.store(req.params.name);
    if (!store) throw notFound(`Unknown store '${req.params.name}' in application '${application.id}'`);
    const request = parseQueryRequest(jsonBody(req), store, application.id, this.catalog, this.defaultTimeoutMs);
    const server = this.serverOf(application);
    await executeQuery({ application, store, request, server, startedAt, renderer: this.renderer, logger: this.logger }, res);
  }

  private serverOf(application: ApplicationHandle): string {
    let server = this.servers.get(application);
    if (server === undefined) {
      server = String(application.config()["application.server"] ?? this.kernel.serverAddress() ?? "");
      this.servers.set(application, server);
    }
    return server;
  }

  private registry(): ApplicationRegistry | undefined {
    return this.components.isRegistered(STREAMS_RUNTIME_TOKEN, true) ? this.components.resolve<ApplicationRegistry>(STREAMS_RUNTIME_TOKEN) : undefined;
  }

  private application(req: SluiceRequest): ApplicationHandle {
    const application = this.registry()?.application(req.params.id);
    if (!application) throw notFound(`Unknown application '${req.params.id}'`);
    return application;
  }
}
