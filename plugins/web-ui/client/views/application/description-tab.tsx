/** Description and configuration; secret values arrive from Sluice already hidden (`[hidden]`). */
import { useState } from "preact/hooks";
import { formatValue } from "../../components/formatting";
import { SearchField } from "../../components/search-field";
import { Since } from "../../components/since";
import { TableHead } from "../../components/table-head";
import type { TabProps } from "./tab-props";

export function DescriptionTab({ description }: TabProps) {
  const data = description.data!;
  const [filter, setFilter] = useState("");
  const needle = filter.trim().toLowerCase();
  const entries = Object.entries(data.config).filter(([key, value]) => needle === "" || `${key} ${value}`.toLowerCase().includes(needle));
  return (
    <>
      <h2>Description</h2>
      <p>{data.description ?? <span class="muted">The application has no description.</span>}</p>
      <dl class="inline">
        <dt>Name</dt>
        <dd>{data.name}</dd>
        <dt>Version</dt>
        <dd>{data.version}</dd>
        <dt>Started</dt>
        <dd>
          <Since time={data.since} />
        </dd>
        <dt>State</dt>
        <dd>
          {data.state.state} since <Since time={data.state.since} />
        </dd>
      </dl>
      {data.exception && (
        <>
          <h3>Last error</h3>
          <pre class="exception">{data.exception}</pre>
        </>
      )}
      <h2>Configuration</h2>
      <SearchField label="Filter keys and values" value={filter} onChange={setFilter} />
      <table class="config">
        <caption class="visually-hidden">Configuration of the application</caption>
        <TableHead columns={["Key", "Value"]} />
        <tbody>
          {entries.map(([key, value]) => (
            <tr key={key}>
              <th scope="row">
                <code>{key}</code>
              </th>
              <td class={value === "[hidden]" ? "hidden-value" : undefined}>{formatValue(value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}
