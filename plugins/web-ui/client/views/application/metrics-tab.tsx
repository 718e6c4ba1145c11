/** Every metric in a searchable table; any numeric one can be charted live, several at once. */
import { useState } from "preact/hooks";
import type { Metric, MetricGroup } from "../../api/sluice-types";
import { ErrorNotice, Loading } from "../../components/error-notice";
import { formatNumber, formatValue } from "../../components/formatting";
import { LineChart } from "../../components/line-chart";
import { SearchField } from "../../components/search-field";
import { numeric, TableHead } from "../../components/table-head";
import { seriesOf } from "../../live/time-series";
import { usePoll } from "../../live/use-poll";
import { streamsPath, useSession } from "../../session";
import type { TabProps } from "./tab-props";

interface Row {
  key: string;
  group: string;
  metric: Metric;
  tags: string;
}

const tagsText = (tags: Record<string, string>) =>
  Object.entries(tags)
    .map(([name, value]) => `${name}=${value}`)
    .join(", ");

function rowsOf(groups: MetricGroup[]): Row[] {
  return groups.flatMap((group) =>
    group.metrics.map((metric) => ({ key: `${group.name}|${metric.name}|${JSON.stringify(metric.tags)}`, group: group.name, metric, tags: tagsText(metric.tags) })),
  );
}

export function MetricsTab({ id }: TabProps) {
  const { api } = useSession();
  const samples = seriesOf(`metrics:${id}`);
  const metrics = usePoll(async () => {
    const groups = await api.get<MetricGroup[]>(streamsPath(id, "/metrics"));
    const at = Date.now();
    for (const row of rowsOf(groups)) {
      if (typeof row.metric.value === "number") samples.add(row.key, `${row.metric.name}${row.tags ? ` (${row.tags})` : ""}`, at, row.metric.value);
    }
    return groups;
  }, [id]);
  const [search, setSearch] = useState("");
  const [charted, setCharted] = useState<string[]>([]);
  if (!metrics.data) return metrics.error ? <ErrorNotice error={metrics.error} /> : <Loading what="the metrics" />;
  const needle = search.trim().toLowerCase();
  const rows = rowsOf(metrics.data).filter((row) => needle === "" || `${row.group} ${row.metric.name} ${row.tags} ${row.metric.description}`.toLowerCase().includes(needle));
  const toggle = (key: string) => setCharted((keys) => (keys.includes(key) ? keys.filter((one) => one !== key) : [...keys, key]));
  const now = Date.now();
  return (
    <>
      <ErrorNotice error={metrics.error} />
      {charted.length > 0 && <LineChart title="Charted metrics" series={samples.list(now, charted)} now={now} empty="Waiting for samples…" />}
      <SearchField label="Search metrics" value={search} onChange={setSearch} placeholder="name, group, tag or description" />
      <p class="muted" role="status">
        {rows.length} metrics{needle ? ` match “${search.trim()}”` : ""}; choose Chart on a numeric one to follow it live.
      </p>
      <table class="metrics">
        <caption class="visually-hidden">Metrics of the application</caption>
        <TableHead columns={["Group", "Metric", "Tags", numeric("Value"), "Chart"]} />
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <td>{row.group}</td>
              <th scope="row" title={row.metric.description}>
                {row.metric.name}
                <span class="description">{row.metric.description}</span>
              </th>
              <td>{row.tags}</td>
              <td class="number">{typeof row.metric.value === "number" ? formatNumber(row.metric.value) : formatValue(row.metric.value)}</td>
              <td>
                {typeof row.metric.value === "number" && (
                  <button type="button" class="small" aria-pressed={charted.includes(row.key)} onClick={() => toggle(row.key)} aria-label={`Chart ${row.metric.name} ${row.tags}`}>
                    Chart
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
