/** The metric groups as the JSON array of docs/api.md#metrics (the default format). */
import type { MetricsFormatter } from "../../kernel/contracts/metrics-formatter";
import type { MetricGroup } from "../../kernel/contracts/streams/runtime";
import { JSON_CONTENT_TYPE } from "../../kernel/http/responses";

export class JsonMetricsFormatter implements MetricsFormatter {
  readonly format = "json";
  readonly contentType = JSON_CONTENT_TYPE;

  render(_applicationId: string, groups: readonly MetricGroup[]): string {
    return JSON.stringify(groups);
  }
}
