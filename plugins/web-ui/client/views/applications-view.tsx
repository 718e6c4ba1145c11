/** Applications: every application of this instance with its state, since when, version, total lag and records/s. */
import type { InstanceDescription, MetricGroup, Offsets } from "../api/sluice-types";
import { ErrorNotice, Loading, PendingCells } from "../components/error-notice";
import { formatNumber } from "../components/formatting";
import { Since } from "../components/since";
import { StateBadge } from "../components/state-badge";
import { numeric, TableHead } from "../components/table-head";
import { recordLag, totalLag } from "../live/lag-samples";
import { processRate } from "../live/process-rate";
import { usePoll } from "../live/use-poll";
import { Link } from "../routing/router";
import { pathOf } from "../routing/routes";
import { streamsPath, useSession } from "../session";

export function ApplicationsView() {
  const { api } = useSession();
  const ids = usePoll(() => api.get<string[]>("/api/v1/streams"), []);
  return (
    <>
      <h1>Applications</h1>
      <ErrorNotice error={ids.error} />
      {!ids.data ? (
        !ids.error && <Loading what="the applications" />
      ) : ids.data.length === 0 ? (
        <p class="muted">No application runs in this Sluice.</p>
      ) : (
        <table class="applications">
          <caption class="visually-hidden">Applications of this instance, refreshed every few seconds</caption>
          <TableHead columns={["Application", "State", "Since", "Version", numeric("Total lag"), numeric("Records/s")]} />
          <tbody>
            {ids.data.map((id) => (
              <ApplicationRow key={id} id={id} />
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

interface RowData {
  description: InstanceDescription;
  lag: number | undefined;
  rate: number | undefined;
}

function ApplicationRow({ id }: { id: string }) {
  const { api } = useSession();
  const row = usePoll<RowData>(async () => {
    const [description, offsets, metrics] = await Promise.all([
      api.get<InstanceDescription>(streamsPath(id)),
      api.get<Offsets>(streamsPath(id, "/offsets")),
      api.get<MetricGroup[]>(streamsPath(id, "/metrics")),
    ]);
    recordLag(id, offsets);
    return { description, lag: totalLag(offsets), rate: processRate(metrics) };
  }, [id]);
  const data = row.data;
  return (
    <tr data-application={id}>
      <th scope="row">
        <Link href={pathOf({ view: "application", id, tab: "description" })}>{id}</Link>
        {data && data.description.name !== id && <span class="muted"> {data.description.name}</span>}
      </th>
      {!data ? (
        <PendingCells error={row.error} what={id} span={5} />
      ) : (
        <>
          <td>
            <StateBadge state={data.description.state.state} paused={data.description.state.paused === true} />
          </td>
          <td>
            <Since time={data.description.state.since} />
          </td>
          <td>{data.description.version}</td>
          <td class="number">{data.lag === undefined ? "—" : formatNumber(data.lag)}</td>
          <td class="number">{data.rate === undefined ? "—" : formatNumber(data.rate)}</td>
        </>
      )}
    </tr>
  );
}
