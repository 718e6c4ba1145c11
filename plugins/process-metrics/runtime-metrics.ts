/**
 * The Node.js runtime's metrics: prom-client's defaults (CPU, memory, heap and heap spaces, event-loop lag, GC,
 * handles, requests and resources by type, file descriptors, version) and the event loop's utilisation. They
 * describe the process, so one registry serves every Sluice in it (tests start many).
 */
import { performance } from "node:perf_hooks";
import { collectDefaultMetrics, Gauge, Registry } from "prom-client";

// prom-client also exports each of these sums as a gauge, which `promtool check metrics` refuses for its `_total`
// suffix; they are the sums of the families of the same name without it.
const GAUGES_NAMED_LIKE_COUNTERS = ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"];

let registry: Registry | undefined;

export function runtimeMetrics(): Registry {
  if (registry) return registry;
  registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);
  let previous = performance.eventLoopUtilization();
  new Gauge({
    name: "nodejs_eventloop_utilization_ratio",
    help: "Share of the time the event loop was busy since the previous scrape, from 0 to 1",
    registers: [registry],
    collect() {
      const now = performance.eventLoopUtilization();
      this.set(performance.eventLoopUtilization(now, previous).utilization);
      previous = now;
    },
  });
  return registry;
}
