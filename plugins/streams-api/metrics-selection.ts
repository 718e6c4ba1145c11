/** Choosing metrics for the metrics endpoints (docs/api.md#metrics): by group and name, `filter_empty`, sorting, value text. */
import { type Metric, type MetricGroup, notFound } from "sluice";
import { plainDecimal } from "./plain-decimal";

export interface MetricsSelection {
  group?: string;
  name?: string;
  /** Leaves out metrics whose value is null, NaN, "" or 0, and groups left empty. */
  filterEmpty: boolean;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const tagsText = (tags: Record<string, string>) =>
  Object.entries(tags)
    .sort(([a], [b]) => byText(a, b))
    .map(([tag, value]) => `${tag}\u0000${value}`)
    .join("\u0001");

/** Groups sorted by name, metrics by name then tags. A named group or metric that does not exist is a 404. */
export function selectMetrics(applicationId: string, groups: readonly MetricGroup[], selection: MetricsSelection): MetricGroup[] {
  let selected = groups.map((group) => ({ name: group.name, metrics: group.metrics }));
  if (selection.group !== undefined) {
    selected = selected.filter((group) => group.name === selection.group);
    if (selected.length === 0) throw notFound(`Application '${applicationId}' has no metric group '${selection.group}'`);
  }
  if (selection.name !== undefined) {
    selected = selected.map((group) => ({ name: group.name, metrics: group.metrics.filter((metric) => metric.name === selection.name) }));
    if (selected.every((group) => group.metrics.length === 0)) {
      throw notFound(`Application '${applicationId}' has no metric '${selection.name}' in group '${selection.group}'`);
    }
  }
  if (selection.filterEmpty) {
    selected = selected.map((group) => ({ name: group.name, metrics: group.metrics.filter((metric) => !isEmpty(metric)) })).filter((group) => group.metrics.length > 0);
    // A named metric left without a value is as absent as one that does not exist; a named group may be left empty.
    if (selection.name !== undefined && selected.length === 0) {
      throw notFound(`Application '${applicationId}' has no metric '${selection.name}' in group '${selection.group}' with a value (filter_empty)`);
    }
  }
  return selected
    .sort((a, b) => byText(a.name, b.name))
    .map((group) => ({ name: group.name, metrics: [...group.metrics].sort((a, b) => byText(a.name, b.name) || byText(tagsText(a.tags), tagsText(b.tags))) }));
}

function isEmpty(metric: Metric): boolean {
  const value = metric.value;
  return value === null || value === "" || value === 0 || (typeof value === "number" && Number.isNaN(value));
}

/** A metric value as text: numbers as plain decimals in their shortest form (`42`, `0.5`), strings as they are, null as "". */
export function metricValueText(value: Metric["value"]): string {
  if (value === null) return "";
  return typeof value === "number" ? plainDecimal(value) : value;
}
