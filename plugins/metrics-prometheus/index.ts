export { PrometheusMetricsFormatter } from "./prometheus-formatter";
