/**
 * The metric groups in the Prometheus text exposition format 0.0.4 (docs/api.md#metrics): one family per metric
 * name across groups and applications (the group and the application are labels), `*-total` metrics as counters,
 * the others as gauges, and string-valued metrics as `<family>_info{…, value="<string>"} 1`. Metrics without a
 * value are left out.
 */
import type { ApplicationMetrics, Metric, MetricGroup, MetricsFormatter } from "sluice";
import { escapeHelp, escapeLabelValue, familyName, labelName } from "./prometheus-names";

interface Family {
  type: "counter" | "gauge";
  help: string;
  samples: string[];
}

export class PrometheusMetricsFormatter implements MetricsFormatter {
  readonly format = "prometheus";
  readonly contentType = "text/plain; version=0.0.4; charset=utf-8";

  render(applicationId: string, groups: readonly MetricGroup[]): string {
    return this.renderApplications([{ applicationId, groups }]);
  }

  renderApplications(applications: readonly ApplicationMetrics[]): string {
    const families = new Map<string, Family>();
    for (const { applicationId, groups } of applications) {
      for (const group of groups) {
        for (const metric of group.metrics) {
          if (metric.value === null) continue;
          const { name, per, unit } = familyName(metric.name);
          const isInfo = typeof metric.value === "string";
          const sampleName = isInfo ? `${name}_info` : name;
          const family = familyOf(families, sampleName, isInfo ? "gauge" : typeOf(name), helpOf(metric, unit));
          const labels = labelSet(applicationId, group.name, metric, isInfo ? String(metric.value) : undefined);
          family.samples.push(`${sampleName}{${labels}} ${isInfo ? "1" : sampleValue(Number(metric.value) / per)}`);
        }
      }
    }
    let text = "";
    for (const [name, family] of [...families].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      text += `# HELP ${name} ${escapeHelp(family.help)}\n# TYPE ${name} ${family.type}\n${family.samples.join("\n")}\n`;
    }
    return text;
  }
}

function typeOf(name: string): Family["type"] {
  return name.endsWith("_total") ? "counter" : "gauge";
}

/** The description, saying so when the name was converted to a base unit. */
function helpOf(metric: Metric, unit: string | undefined): string {
  const help = metric.description || metric.name;
  return unit === undefined ? help : `${help} (in ${unit} here)`;
}

function familyOf(families: Map<string, Family>, name: string, type: Family["type"], help: string): Family {
  let family = families.get(name);
  if (!family) {
    family = { type, help, samples: [] };
    families.set(name, family);
  }
  return family;
}

/** `application_id`, `group`, the tags, then `value` for info metrics; a name already used is not repeated. */
function labelSet(applicationId: string, group: string, metric: Metric, infoValue: string | undefined): string {
  const labels = new Map<string, string>([
    ["application_id", applicationId],
    ["group", group],
  ]);
  for (const [tag, value] of Object.entries(metric.tags)) {
    const name = labelName(tag);
    if (!labels.has(name)) labels.set(name, value);
  }
  if (infoValue !== undefined && !labels.has("value")) labels.set("value", infoValue);
  return [...labels].map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",");
}

function sampleValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}
