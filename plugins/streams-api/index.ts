/**
 * The /api/v1/streams endpoints of docs/api.md#streams (all but /subscribe, which the event-streams plugin serves),
 * GET /api/v1/streams/{id}/stores, and deploy, terminate, pause and resume. Applications come from the streams runtime in the container, resolved per
 * request; metric formats from the MetricsFormatter descriptors.
 */
import {
  configSection,
  APPLICATION_LOOKUP,
  METRICS_FORMATTER_CONTRACT,
  type MetricsFormatter,
  optional,
  type Plugin,
  type PluginContext,
  StartupError,
  STREAMS_DEPLOYMENTS_TOKEN,
  STREAMS_RUNTIME_TOKEN,
} from "sluice";
import { registerDeploymentRoutes } from "./deployment-routes";
import { registerLifecycleRoutes } from "./lifecycle-routes";
import { registerThreadRoutes } from "./thread-routes";
import { registerMetricsRoutes } from "./metrics-routes";
import { registerReadRoutes } from "./read-routes";

/** The plugin's sub-section of `server`. */
export const OPERATION_CONFIG = configSection({
  name: "server.operation",
  doc: "Operations on applications over REST (restart, stop, deploy, terminate, pause, resume).",
  keys: {
    "timeout.ms": { type: "integer", default: 30_000, doc: "Longest time restart and stop wait for the application." },
  },
});

export class StreamsApiPlugin implements Plugin {
  readonly configSections = [OPERATION_CONFIG];
  readonly requires = [optional(STREAMS_RUNTIME_TOKEN), optional(STREAMS_DEPLOYMENTS_TOKEN)];

  async configure({ config, components, routes, services, kernel }: PluginContext): Promise<void> {
    const lookup = components.resolve(APPLICATION_LOOKUP);
    registerReadRoutes(routes, lookup);
    registerMetricsRoutes(routes, lookup, await loadFormatters(services.load.bind(services)));
    const lifecycle = { headless: kernel.headless(), timeoutMs: config.of(OPERATION_CONFIG).get("timeout.ms") };
    registerLifecycleRoutes(routes, lookup, lifecycle);
    registerThreadRoutes(routes, lookup, lifecycle);
    registerDeploymentRoutes(routes, lookup, components, lifecycle);
  }
}

async function loadFormatters(load: PluginContext["services"]["load"]): Promise<Map<string, MetricsFormatter>> {
  const formatters = new Map<string, { name: string; formatter: MetricsFormatter }>();
  for (const { name, instance } of await load(METRICS_FORMATTER_CONTRACT)) {
    const existing = formatters.get(instance.format);
    if (existing) throw new StartupError(`${name} and ${existing.name} both render metrics format '${instance.format}'`);
    formatters.set(instance.format, { name, formatter: instance });
  }
  return new Map([...formatters].map(([format, { formatter }]) => [format, formatter]));
}
