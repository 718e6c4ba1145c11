/**
 * Renders an application's metric groups in one output format (the `format` query value of docs/api.md#metrics).
 * One implementation per format, each listed in META-INF/services/sluice.metrics.MetricsFormatter, so a new
 * format is one more descriptor line.
 */
import type { MetricGroup } from "./streams/runtime";
import { token } from "./token";

export const METRICS_FORMATTER_CONTRACT = token<MetricsFormatter>("sluice.metrics.MetricsFormatter");

/** The format used when the request names none. */
export const DEFAULT_METRICS_FORMAT = "json";

/** One application's metric groups, for a document holding several applications. */
export interface ApplicationMetrics {
  applicationId: string;
  groups: readonly MetricGroup[];
}

export interface MetricsFormatter {
  /** The `format` query value this formatter answers, e.g. `json`, `prometheus`. */
  readonly format: string;
  /** The Content-Type header of the rendered body. */
  readonly contentType: string;
  /** `groups` are already selected and sorted (groups by name, metrics by name then tags). */
  render(applicationId: string, groups: readonly MetricGroup[]): string;
  /**
   * Several applications in one document (GET /metrics renders them all with the `prometheus` formatter), for a
   * format that can hold them; the same as `render` for one application.
   */
  renderApplications?(applications: readonly ApplicationMetrics[]): string;
}
