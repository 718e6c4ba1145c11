/** Consumed, committed and end offsets with the lag of every partition, and lag charted over the last minutes. */
import type { Offsets } from "../../api/sluice-types";
import { ErrorNotice, Loading } from "../../components/error-notice";
import { formatNumber, formatTimestamp } from "../../components/formatting";
import { LineChart } from "../../components/line-chart";
import { numeric, TableHead } from "../../components/table-head";
import { lagSeries, recordLag } from "../../live/lag-samples";
import { usePoll } from "../../live/use-poll";
import { streamsPath, useSession } from "../../session";
import type { TabProps } from "./tab-props";

const offset = (value: number) => (value < 0 ? "—" : formatNumber(value));

export function OffsetsTab({ id }: TabProps) {
  const { api } = useSession();
  const offsets = usePoll(async () => {
    const answer = await api.get<Offsets>(streamsPath(id, "/offsets"));
    recordLag(id, answer);
    return answer;
  }, [id]);
  const positions = offsets.data?.consumers.flatMap((consumer) => consumer.positions.map((position) => ({ ...position, thread: consumer.stream_thread }))) ?? [];
  const now = Date.now();
  return (
    <>
      <h2>Lag</h2>
      <LineChart title="Lag per partition (records)" series={lagSeries(id).list(now)} now={now} empty="Waiting for the first offsets…" />
      <h2>Offsets</h2>
      <ErrorNotice error={offsets.error} />
      {!offsets.data ? (
        !offsets.error && <Loading what="the offsets" />
      ) : positions.length === 0 ? (
        <p class="muted">No position yet: this instance has consumed nothing since it started (group {offsets.data.group}).</p>
      ) : (
        <table class="offsets">
          <caption class="visually-hidden">Offsets of group {offsets.data.group} per partition</caption>
          <TableHead columns={["Topic", numeric("Partition"), numeric("Consumed"), numeric("Committed"), numeric("Log start"), numeric("Log end"), numeric("Lag"), "Last committed"]} />
          <tbody>
            {positions.map((position) => (
              <tr key={`${position.topic}-${position.partition}`}>
                <th scope="row">{position.topic}</th>
                <td class="number">{position.partition}</td>
                <td class="number">{offset(position.consumed_offset)}</td>
                <td class="number">{offset(position.committed_offset)}</td>
                <td class="number">{offset(position.log_start_offset)}</td>
                <td class="number">{offset(position.log_end_offset)}</td>
                <td class="number">{offset(position.lag)}</td>
                <td>{position.committed_timestamp > 0 ? formatTimestamp(position.committed_timestamp) : "—"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
