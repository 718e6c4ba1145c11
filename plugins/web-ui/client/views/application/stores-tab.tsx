/** The application's stores per partition: changelog position and lag, queryable or not, restore progress. */
import type { StoresReport } from "../../api/sluice-types";
import { ErrorNotice, Loading } from "../../components/error-notice";
import { formatNumber } from "../../components/formatting";
import { numeric, TableHead } from "../../components/table-head";
import { usePoll } from "../../live/use-poll";
import { streamsPath, useSession } from "../../session";
import type { TabProps } from "./tab-props";

type StorePartition = StoresReport["stores"][number]["partitions"][number];

export function StoresTab({ id }: TabProps) {
  const { api } = useSession();
  const report = usePoll(() => api.get<StoresReport>(streamsPath(id, "/stores")), [id]);
  if (!report.data) return report.error ? <ErrorNotice error={report.error} /> : <Loading what="the stores" />;
  return (
    <>
      <ErrorNotice error={report.error} />
      {report.data.stores.length === 0 && <p class="muted">The application has no state store.</p>}
      {report.data.stores.map((store) => (
        <section key={store.name} aria-labelledby={`store-${store.name}`}>
          <h2 id={`store-${store.name}`}>
            {store.name} <span class="muted">{store.type}</span>
          </h2>
          {store.partitions.length === 0 ? (
            <p class="muted">No partition of this store is open on this instance.</p>
          ) : (
            <table>
              <caption class="visually-hidden">Partitions of store {store.name}</caption>
              <TableHead columns={[numeric("Partition"), "Changelog", numeric("Position"), numeric("Log end"), numeric("Lag"), "Queryable", "Restore"]} />
              <tbody>
                {store.partitions.map((partition) => (
                  <tr key={partition.partition}>
                    <th scope="row" class="number">{partition.partition}</th>
                    <td>{partition.changelog_topic}</td>
                    <td class="number">{formatNumber(partition.changelog_position)}</td>
                    <td class="number">{formatNumber(partition.log_end_offset)}</td>
                    <td class="number">{formatNumber(partition.lag)}</td>
                    <td>{partition.queryable ? "yes" : "no"}</td>
                    <td>
                      <RestoreProgress store={store.name} partition={partition} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ))}
    </>
  );
}

function RestoreProgress({ store, partition }: { store: string; partition: StorePartition }) {
  const { records_restored: restored, records_total: total, rate } = partition.restore;
  const done = !partition.restoring;
  const label = done
    ? total > 0
      ? `restored ${formatNumber(restored)} records`
      : "up to date"
    : `${formatNumber(restored)} of ${formatNumber(total)} records, ${formatNumber(rate)}/s`;
  return (
    <span class="restore">
      <progress max={Math.max(total, 1)} value={done ? Math.max(total, 1) : restored} aria-label={`Restore of ${store} partition ${partition.partition}: ${label}`} />
      <span>{label}</span>
    </span>
  );
}
