/**
 * GET /metrics: the whole process in the Prometheus text format — the Node.js runtime, HTTP and interactive-query
 * durations, event-stream subscribers, and every application's metrics as the `prometheus` MetricsFormatter renders
 * them (labelled `application_id`, as /api/v1/streams/{id}/metrics?format=prometheus). Registers the ProcessMetrics
 * that the HTTP server, the applications API and the event streams record into.
 */
import type { ServerResponse } from "node:http";
import {
  APPLICATION_LOOKUP,
  type ApplicationLookup,
  METRICS_FORMATTER_CONTRACT,
  type MetricsFormatter,
  optional,
  type Plugin,
  type PluginContext,
  PROCESS_METRICS,
  type RouteSpec,
  sendText,
  STREAMS_RUNTIME_TOKEN,
} from "sluice";
import { runtimeMetrics } from "./runtime-metrics";
import { SluiceMetrics } from "./sluice-metrics";

const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
const APPLICATIONS_FORMAT = "prometheus";
const SPEC: RouteSpec = {
  summary: "The whole process in the Prometheus text format",
  description: "The Node.js runtime, HTTP and query durations, event-stream subscribers, and every application's metrics labelled application_id.",
  tags: ["server"],
  responses: { 200: { description: "Prometheus text exposition format 0.0.4", contentType: CONTENT_TYPE, schema: { type: "string" } } },
};

export class ProcessMetricsPlugin implements Plugin {
  readonly requires = [optional(STREAMS_RUNTIME_TOKEN)];
  readonly provides = [PROCESS_METRICS];
  private lookup!: ApplicationLookup;
  private readonly metrics = new SluiceMetrics();
  /** The formatter of the applications' metrics; undefined when none of that format renders several applications. */
  private formatter: MetricsFormatter | undefined;

  async configure({ components, routes, services, logger }: PluginContext): Promise<void> {
    components.register(PROCESS_METRICS, { useValue: this.metrics });
    this.lookup = components.resolve(APPLICATION_LOOKUP);
    // Started now, so the first scrape's event-loop figures cover the time since startup.
    runtimeMetrics();
    const formatter = (await services.load(METRICS_FORMATTER_CONTRACT)).find(({ instance }) => instance.format === APPLICATIONS_FORMAT)?.instance;
    if (formatter?.renderApplications) this.formatter = formatter;
    else logger.warn(`GET /metrics leaves out the applications' metrics: no metrics formatter of format '${APPLICATIONS_FORMAT}' renders several applications`);
    routes.get("/metrics", (_req, res) => this.scrape(res), { spec: SPEC });
  }

  private async scrape(res: ServerResponse): Promise<void> {
    const [runtime, sluice] = await Promise.all([runtimeMetrics().metrics(), this.metrics.registry.metrics()]);
    sendText(res, 200, runtime + sluice + this.applications(), CONTENT_TYPE);
  }

  private applications(): string {
    if (!this.formatter?.renderApplications) return "";
    return this.formatter.renderApplications(this.lookup.applications().map((application) => ({ applicationId: application.id, groups: application.metrics() })));
  }
}
