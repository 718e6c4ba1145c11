/** Records processed per second by an application: the sum of its stream threads' `process-rate`. */
import type { MetricGroup } from "../api/sluice-types";

export function processRate(groups: MetricGroup[]): number | undefined {
  const rates = groups
    .filter((group) => group.name === "stream-thread-metrics")
    .flatMap((group) => group.metrics)
    .filter((metric) => metric.name === "process-rate" && typeof metric.value === "number")
    .map((metric) => metric.value as number);
  return rates.length === 0 ? undefined : rates.reduce((sum, rate) => sum + rate, 0);
}
