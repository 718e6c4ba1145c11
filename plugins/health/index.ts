/**
 * Health for people and orchestrators:
 * - GET /health: UP unless an application is in ERROR (then DOWN, 503), with `ready`, `not_ready` (applications
 *   still restoring) and the two probes below as `components`;
 * - GET /health/liveness: the process and its event loop are alive — 503 once the event loop has been blocked
 *   longer than `server.health.liveness.max.lag.ms` within the last ten seconds;
 * - GET /health/readiness: 200 when every application is RUNNING and none restores a store, else 503 naming each
 *   application that is not ready and why, so a load balancer sends no queries to an instance that cannot answer.
 *   A paused application is RUNNING and answers queries: it is ready; /health lists it under `paused`.
 * With authentication on, /health and /health/readiness are public (`server.auth.public.paths`) but tell an
 * unauthenticated caller only UP or DOWN: which applications run, and which fail, is for viewers.
 */
import type { ServerResponse } from "node:http";
import { type ComponentRegistry, configSection, HEALTH_INDICATOR, optional, type Plugin, type PluginContext, sendJson } from "sluice";
import { HEALTH_SPECS } from "./health-route-specs";
import { EventLoopWatch } from "./event-loop-watch";

interface ApplicationsHealth {
  applications: Record<string, string>;
  /** Applications with a store still restoring. */
  restoring: string[];
  paused: string[];
  /** Application id → why it is not ready (its state, or `restoring`). */
  notReady: Record<string, string>;
}

const sortedByKey = (record: Record<string, string>) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

/** The plugin's sub-section of `server`. */
export const HEALTH_CONFIG = configSection({
  name: "server.health",
  doc: "The health endpoints (`/health`, `/health/liveness`, `/health/readiness`).",
  keys: {
    "liveness.max.lag.ms": { type: "integer", default: 5_000, doc: "`GET /health/liveness` answers 503 once the event loop has been blocked longer than this within the last ten seconds." },
  },
});

export class HealthPlugin implements Plugin {
  readonly configSections = [HEALTH_CONFIG];
  readonly requires = [optional(HEALTH_INDICATOR)];
  private readonly loop = new EventLoopWatch();
  private maxLagMs = 0;

  configure({ routes, components, config }: PluginContext): void {
    this.maxLagMs = config.of(HEALTH_CONFIG).get("liveness.max.lag.ms");
    routes.get("/health", (req, res) => this.report(components, res, req.principal === undefined), { spec: HEALTH_SPECS.health });
    routes.get(
      "/health/liveness",
      (_req, res) => {
        const liveness = this.liveness();
        sendJson(res, liveness.status === "UP" ? 200 : 503, liveness);
      },
      { spec: HEALTH_SPECS.liveness },
    );
    routes.get(
      "/health/readiness",
      async (req, res) => {
        const readiness = readinessOf(await applicationsHealth(components));
        sendJson(res, readiness.status === "UP" ? 200 : 503, req.principal === undefined ? { status: readiness.status } : readiness);
      },
      { spec: HEALTH_SPECS.readiness },
    );
  }

  start(): void {
    this.loop.start();
  }

  close(): void {
    this.loop.stop();
  }

  private liveness() {
    const delayMs = this.loop.maxDelayMs();
    return { status: delayMs > this.maxLagMs ? "DOWN" : "UP", event_loop_max_delay_ms: delayMs, threshold_ms: this.maxLagMs };
  }

  /** `anonymous`: a caller who did not authenticate (on a public path) learns UP or DOWN only. */
  private async report(components: ComponentRegistry, res: ServerResponse, anonymous: boolean): Promise<void> {
    const health = await applicationsHealth(components);
    const down = Object.values(health.applications).includes("ERROR");
    if (anonymous) return sendJson(res, down ? 503 : 200, { status: down ? "DOWN" : "UP" });
    sendJson(res, down ? 503 : 200, {
      status: down ? "DOWN" : "UP",
      ready: !down && health.restoring.length === 0,
      not_ready: [...health.restoring].sort(),
      paused: [...health.paused].sort(),
      applications: sortedByKey(health.applications),
      components: { liveness: this.liveness(), readiness: readinessOf(health) },
    });
  }
}

async function applicationsHealth(components: ComponentRegistry): Promise<ApplicationsHealth> {
  const indicators = components.resolveAll(HEALTH_INDICATOR);
  const applications: Record<string, string> = {};
  const restoring: string[] = [];
  const paused: string[] = [];
  const notReady: Record<string, string> = {};
  for (const indicator of indicators) {
    const states = indicator.applicationStates();
    Object.assign(applications, states);
    restoring.push(...((await indicator.notReady?.()) ?? []));
    paused.push(...(indicator.paused?.() ?? []));
    for (const [id, state] of Object.entries(states)) if (state !== "RUNNING") notReady[id] = state;
  }
  for (const id of restoring) notReady[id] ??= "restoring";
  return { applications, restoring, paused, notReady };
}

function readinessOf({ notReady }: ApplicationsHealth) {
  return { status: Object.keys(notReady).length === 0 ? "UP" : "DOWN", not_ready: sortedByKey(notReady) };
}
