/** The metric groups as the JSON array of docs/api.md#metrics (the default format). */
import { JSON_CONTENT_TYPE, type MetricGroup, type MetricsFormatter } from "sluice";

export class JsonMetricsFormatter implements MetricsFormatter {
  readonly format = "json";
  readonly contentType = JSON_CONTENT_TYPE;

  render(_applicationId: string, groups: readonly MetricGroup[]): string {
    return JSON.stringify(groups);
  }
}
