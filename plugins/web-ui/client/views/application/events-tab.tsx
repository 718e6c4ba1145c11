/**
 * The tail of an event stream, live: newest first, with pause, a filter on the key and the rate. Events are read
 * with fetch (credentials in a header) and shown at most four times a second, however fast they come.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import type { ApiError } from "../../api/api-client";
import { readEventStream } from "../../api/event-stream-reader";
import { ErrorNotice, Loading } from "../../components/error-notice";
import { formatNumber, formatTimestamp, formatValue } from "../../components/formatting";
import { SearchField } from "../../components/search-field";
import { TableHead } from "../../components/table-head";
import { usePoll } from "../../live/use-poll";
import { streamsPath, useSession } from "../../session";
import type { TabProps } from "./tab-props";

const KEPT = 1000;
const SHOWN = 200;
const RENDER_MS = 250;
const RATE_WINDOW_MS = 5000;
const SUBSCRIPTIONS_REFRESH_MS = 30_000;

interface TailEvent {
  id: string;
  receivedAt: number;
  key: unknown;
  value: unknown;
  timestamp: number | undefined;
}

export function EventsTab({ id }: TabProps) {
  const { api } = useSession();
  const types = usePoll(() => api.get<string[]>(streamsPath(id, "/subscriptions")), [id], SUBSCRIPTIONS_REFRESH_MS);
  const [chosen, setChosen] = useState<string | undefined>();
  if (!types.data) return types.error ? <ErrorNotice error={types.error} /> : <Loading what="the event streams" />;
  if (types.data.length === 0) return <p class="muted">This application declares no event stream.</p>;
  const type = chosen !== undefined && types.data.includes(chosen) ? chosen : types.data[0];
  return (
    <>
      <label class="inline-field">
        Event stream
        <select value={type} onChange={(event) => setChosen(event.currentTarget.value)}>
          {types.data.map((one) => (
            <option key={one} value={one}>
              {one}
            </option>
          ))}
        </select>
      </label>
      <EventTail key={`${id}/${type}`} id={id} type={type} />
    </>
  );
}

function EventTail({ id, type }: { id: string; type: string }) {
  const { api } = useSession();
  const events = useRef<TailEvent[]>([]);
  const received = useRef(0);
  const [, setShownAt] = useState(0);
  const [connected, setConnected] = useState(false);
  const [failure, setFailure] = useState<ApiError | undefined>();
  const [paused, setPaused] = useState<{ snapshot: TailEvent[]; received: number } | undefined>();
  const [keyFilter, setKeyFilter] = useState("");

  useEffect(() => {
    let dirty = false;
    const stream = readEventStream(api, streamsPath(id, `/subscribe/${encodeURIComponent(type)}`), {
      onEvent: (event) => {
        const record = parseRecord(event.data);
        events.current.unshift({ id: event.id, receivedAt: Date.now(), ...record });
        received.current++;
        if (events.current.length > KEPT) events.current.length = KEPT;
        dirty = true;
      },
      onConnection: setConnected,
      onFailure: setFailure,
    });
    // Redraws at most every RENDER_MS, and every second anyway so that the rate falls when events stop.
    let idleTicks = 0;
    const timer = setInterval(() => {
      idleTicks++;
      if (dirty || idleTicks >= 1000 / RENDER_MS) {
        dirty = false;
        idleTicks = 0;
        setShownAt(Date.now());
      }
    }, RENDER_MS);
    return () => {
      clearInterval(timer);
      stream.close();
    };
  }, [id, type]);

  const now = Date.now();
  const recent = events.current.filter((event) => event.receivedAt >= now - RATE_WINDOW_MS).length;
  const needle = keyFilter.trim().toLowerCase();
  const source = paused?.snapshot ?? events.current;
  const shown = source.filter((event) => needle === "" || formatValue(event.key).toLowerCase().includes(needle)).slice(0, SHOWN);

  return (
    <>
      <div class="toolbar">
        <button type="button" aria-pressed={paused !== undefined} onClick={() => setPaused(paused ? undefined : { snapshot: [...events.current], received: received.current })}>
          {paused ? "Resume" : "Pause"}
        </button>
        <SearchField label="Filter by key" value={keyFilter} onChange={setKeyFilter} inline />
        <span class="muted" role="status" data-rate={recent / (RATE_WINDOW_MS / 1000)}>
          {connected ? "connected" : failure ? "stopped" : "connecting…"} · {formatNumber(recent / (RATE_WINDOW_MS / 1000))} events/s · {formatNumber(events.current.length)} kept
          {paused && ` · paused, ${formatNumber(received.current - paused.received)} new since`}
        </span>
      </div>
      <ErrorNotice error={failure} action="Event stream" />
      <table class="events">
        <caption class="visually-hidden">Latest events of {type}, newest first</caption>
        <TableHead columns={["Id", "Record time", "Key", "Value"]} />
        <tbody>
          {shown.map((event) => (
            <tr key={event.id}>
              <td>
                <code>{event.id}</code>
              </td>
              <td>{event.timestamp === undefined ? "—" : formatTimestamp(event.timestamp)}</td>
              <th scope="row">{formatValue(event.key)}</th>
              <td>
                <code>{formatValue(event.value)}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown.length === 0 && <p class="muted">{needle ? "No event with a matching key yet." : "Waiting for events…"}</p>}
    </>
  );
}

function parseRecord(data: string): Pick<TailEvent, "key" | "value" | "timestamp"> {
  try {
    const record = JSON.parse(data) as { key?: unknown; value?: unknown; timestamp?: unknown };
    return { key: record.key, value: record.value, timestamp: typeof record.timestamp === "number" ? record.timestamp : undefined };
  } catch {
    return { key: undefined, value: data, timestamp: undefined };
  }
}
