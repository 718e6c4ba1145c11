/** Overview: what this Sluice is (version, headless, /info), whether it is healthy (/health), each application's state. */
import type { AppState, Health } from "../api/sluice-types";
import { ErrorNotice, Loading } from "../components/error-notice";
import { formatNumber } from "../components/formatting";
import { StateBadge } from "../components/state-badge";
import { TableHead } from "../components/table-head";
import { usePoll } from "../live/use-poll";
import { Link } from "../routing/router";
import { pathOf } from "../routing/routes";
import { useSession } from "../session";

/** /health answers 503 with its body when an application is in ERROR: that is news to show, not a failure. */
const HEALTH_STATUSES = [503];
const INFO_REFRESH_MS = 60_000;

export function OverviewView() {
  const { api, server } = useSession();
  const health = usePoll(() => api.request<Health>("GET", "/health", undefined, undefined, HEALTH_STATUSES), []);
  const info = usePoll(() => api.get<Record<string, unknown>>("/info"), [], INFO_REFRESH_MS);
  const entries = info.data ? flatten(info.data) : [];
  return (
    <>
      <h1>Overview</h1>
      <div class="cards">
        <section class="card" aria-labelledby="server-heading">
          <h2 id="server-heading">Server</h2>
          <dl>
            <dt>Sluice version</dt>
            <dd>{server.version}</dd>
            <dt>Mode</dt>
            <dd>{server.headless ? "headless: restart and stop are refused" : "operations allowed"}</dd>
          </dl>
        </section>
        <section class="card" aria-labelledby="health-heading">
          <h2 id="health-heading">Health</h2>
          <ErrorNotice error={health.error} />
          {health.data ? <HealthSummary health={health.data} /> : !health.error && <Loading what="health" />}
        </section>
        <section class="card" aria-labelledby="info-heading">
          <h2 id="info-heading">Info</h2>
          <ErrorNotice error={info.error} />
          {info.data &&
            (entries.length === 0 ? (
              <p class="muted">No server.info.* entries are configured.</p>
            ) : (
              <dl>
                {entries.map(([key, value]) => [<dt key={`k-${key}`}>{key}</dt>, <dd key={`v-${key}`}>{value}</dd>])}
              </dl>
            ))}
        </section>
      </div>
      {health.data?.applications && <ApplicationStates states={health.data.applications} />}
    </>
  );
}

/** The console signs in, so /health tells it everything; an answer with the status only shows the status. */
function HealthSummary({ health }: { health: Health }) {
  const status = (
    <dd>
      <span class={`badge badge-${health.status === "UP" ? "ok" : "error"}`}>{health.status}</span>
    </dd>
  );
  if (!health.components) {
    return (
      <dl>
        <dt>Status</dt>
        {status}
      </dl>
    );
  }
  const { liveness, readiness } = health.components;
  const notReady = Object.entries(readiness.not_ready ?? {});
  return (
    <dl>
      <dt>Status</dt>
      {status}
      <dt>Liveness</dt>
      <dd>
        <span class={`badge badge-${liveness.status === "UP" ? "ok" : "error"}`}>{liveness.status}</span> event loop delayed{" "}
        {formatNumber(liveness.event_loop_max_delay_ms)} ms at most (limit {formatNumber(liveness.threshold_ms)} ms)
      </dd>
      <dt>Readiness</dt>
      <dd>
        <span class={`badge badge-${readiness.status === "UP" ? "ok" : "warning"}`}>{readiness.status}</span>{" "}
        {notReady.length === 0 ? "every application is running with its stores restored" : notReady.map(([id, why]) => `${id}: ${why}`).join(", ")}
      </dd>
    </dl>
  );
}

function ApplicationStates({ states }: { states: Record<string, AppState> }) {
  const ids = Object.keys(states);
  return (
    <section aria-labelledby="states-heading">
      <h2 id="states-heading">Applications</h2>
      {ids.length === 0 ? (
        <p class="muted">No application runs in this Sluice.</p>
      ) : (
        <table>
          <TableHead columns={["Application", "State"]} />
          <tbody>
            {ids.map((id) => (
              <tr key={id}>
                <td>
                  <Link href={pathOf({ view: "application", id, tab: "description" })}>{id}</Link>
                </td>
                <td>
                  <StateBadge state={states[id]} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** `{"app": {"name": "x"}}` → `[["app.name", "x"]]`. */
function flatten(value: Record<string, unknown>, prefix = ""): [string, string][] {
  return Object.entries(value).flatMap(([key, inner]): [string, string][] =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner) ? flatten(inner as Record<string, unknown>, `${prefix}${key}.`) : [[`${prefix}${key}`, String(inner)]],
  );
}
