/**
 * The metrics endpoints of docs/api.md#metrics: the whole set, one group, one name in a group (each in the format
 * the `format` query value names, through the MetricsFormatter of that format) and one value as text.
 */
import type { ServerResponse } from "node:http";
import { type ApplicationLookup, badRequest, DEFAULT_METRICS_FORMAT, type MetricsFormatter, notFound, type RouteRegistrar, sendText, type SluiceRequest } from "sluice";
import { metricValueText, selectMetrics } from "./metrics-selection";
import { metricsSpecs } from "./streams-route-specs";

const BASE = "/api/v1/streams/:id/metrics";

export function registerMetricsRoutes(routes: RouteRegistrar, lookup: ApplicationLookup, formatters: ReadonlyMap<string, MetricsFormatter>): void {
  const render = (req: SluiceRequest, res: ServerResponse) => {
    const formatter = formatterFor(req, formatters);
    const application = lookup.require(req.params.id);
    const groups = selectMetrics(application.id, application.metrics(), {
      group: req.params.group,
      name: req.params.name,
      filterEmpty: req.query.filter_empty !== undefined,
    });
    sendText(res, 200, formatter.render(application.id, groups), formatter.contentType);
  };
  const specs = metricsSpecs([...formatters.keys()].sort(), DEFAULT_METRICS_FORMAT);
  routes.get(BASE, render, { spec: specs.all });
  routes.get(`${BASE}/group/:group`, render, { spec: specs.group });
  routes.get(`${BASE}/group/:group/name/:name`, render, { spec: specs.name });
  routes.get(`${BASE}/group/:group/name/:name/value`, (req, res) => {
    const application = lookup.require(req.params.id);
    const [group] = selectMetrics(application.id, application.metrics(), { group: req.params.group, name: req.params.name, filterEmpty: false });
    const metric = group?.metrics[0];
    if (!metric) throw notFound(`Application '${application.id}' has no metric '${req.params.name}' in group '${req.params.group}'`);
    sendText(res, 200, metricValueText(metric.value));
  }, { spec: specs.value });
}

function formatterFor(req: SluiceRequest, formatters: ReadonlyMap<string, MetricsFormatter>): MetricsFormatter {
  const format = req.query.format ?? DEFAULT_METRICS_FORMAT;
  if (typeof format !== "string") throw badRequest(`Query parameter 'format' must be given once, got ${format.length} values`);
  const formatter = formatters.get(format);
  if (!formatter) throw badRequest(`Query parameter 'format' must be one of ${[...formatters.keys()].sort().join(", ") || "(no formatter installed)"}, got '${format}'`);
  return formatter;
}
