/**
 * The query console: a store, a query of the store's type with its parameters, the `set_options`, and the answer
 * per server (records, failures, status). *Copy as curl* gives the same request for a terminal.
 */
import { useState } from "preact/hooks";
import type { ApiError } from "../../api/api-client";
import type { QueryRecord, QueryResult, StoresReport, StoreType } from "../../api/sluice-types";
import { ErrorNotice, Loading } from "../../components/error-notice";
import { counted, formatTimestamp, formatValue } from "../../components/formatting";
import { TableHead } from "../../components/table-head";
import { usePoll } from "../../live/use-poll";
import { applicationsPath, streamsPath, useSession } from "../../session";
import type { TabProps } from "./tab-props";
import { curlCommand } from "./curl-command";
import { defaultTime, isTimeParameter, QUERIES, queryBody, type QueryForm } from "./query-catalog";

const STORES_REFRESH_MS = 30_000;

export function QueryTab({ id }: TabProps) {
  const { api } = useSession();
  const report = usePoll(() => api.get<StoresReport>(streamsPath(id, "/stores")), [id], STORES_REFRESH_MS);
  if (!report.data) return report.error ? <ErrorNotice error={report.error} /> : <Loading what="the stores" />;
  // A store whose type is not known yet (null) has no queries to offer.
  const stores = report.data.stores.flatMap(({ name, type }) => (type === null ? [] : [{ name, type }]));
  if (stores.length === 0) return <p class="muted">The application has no state store to query.</p>;
  return <QueryConsole id={id} stores={stores} />;
}

function initialForm(type: StoreType): QueryForm {
  const query = QUERIES[type][0];
  return {
    type,
    query: query.name,
    parameters: Object.fromEntries(query.parameters.filter(isTimeParameter).map((name) => [name, defaultTime(name)])),
    keysAsJson: false,
    options: { retries: "", retry_backoff_ms: "", query_timeout_ms: "", limit: "", remote_access_allowed: true },
  };
}

function QueryConsole({ id, stores }: { id: string; stores: { name: string; type: StoreType }[] }) {
  const { api, credentials } = useSession();
  const [store, setStore] = useState(stores[0].name);
  const [form, setForm] = useState<QueryForm>(() => initialForm(stores[0].type));
  const [answer, setAnswer] = useState<{ result?: QueryResult; error?: ApiError; invalid?: string }>({});
  const [curl, setCurl] = useState<{ command: string; copied: boolean } | undefined>();
  const [running, setRunning] = useState(false);
  const spec = QUERIES[form.type].find((query) => query.name === form.query) ?? QUERIES[form.type][0];
  const path = applicationsPath(id, `/stores/${encodeURIComponent(store)}`);

  const chooseStore = (name: string) => {
    setStore(name);
    setForm(initialForm(stores.find((one) => one.name === name)!.type));
  };
  const chooseQuery = (name: string) => {
    const parameters = QUERIES[form.type].find((query) => query.name === name)!.parameters;
    setForm({ ...form, query: name, parameters: Object.fromEntries(parameters.map((one) => [one, form.parameters[one] ?? (isTimeParameter(one) ? defaultTime(one) : "")])) });
  };
  const setParameter = (name: string, value: string) => setForm({ ...form, parameters: { ...form.parameters, [name]: value } });
  const setOption = (name: keyof QueryForm["options"], value: string | boolean) => setForm({ ...form, options: { ...form.options, [name]: value } });

  const run = async (event: Event) => {
    event.preventDefault();
    const built = queryBody(form);
    if ("error" in built) return setAnswer({ invalid: built.error });
    setRunning(true);
    try {
      setAnswer({ result: await api.request<QueryResult>("POST", path, built.body) });
    } catch (error) {
      setAnswer({ error: error as ApiError });
    }
    setRunning(false);
  };
  const copyCurl = async () => {
    const built = queryBody(form);
    if ("error" in built) return setAnswer({ invalid: built.error });
    const command = curlCommand("POST", `${location.origin}${path}`, built.body, credentials);
    let copied = false;
    try {
      await navigator.clipboard.writeText(command);
      copied = true;
    } catch {
      // No clipboard outside a secure context: the command is shown to select and copy.
    }
    setCurl({ command, copied });
  };

  return (
    <>
      <h2>Query a store</h2>
      <form class="query-form" onSubmit={run}>
        <div class="fields">
          <label>
            Store
            <select value={store} onChange={(event) => chooseStore(event.currentTarget.value)}>
              {stores.map((one) => (
                <option key={one.name} value={one.name}>
                  {one.name}
                </option>
              ))}
            </select>
          </label>
          <label>
            Type
            <input value={form.type} readOnly />
          </label>
          <label>
            Query
            <select value={spec.name} onChange={(event) => chooseQuery(event.currentTarget.value)}>
              {QUERIES[form.type].map((query) => (
                <option key={query.name} value={query.name}>
                  {query.name}
                </option>
              ))}
            </select>
          </label>
          {spec.parameters.map((name) => (
            <label key={name}>
              {name}
              {isTimeParameter(name) && <span class="muted"> (epoch ms{spec.optional?.includes(name) ? ", optional" : ""})</span>}
              <input
                name={name}
                inputMode={isTimeParameter(name) ? "numeric" : undefined}
                value={form.parameters[name] ?? ""}
                onInput={(event) => setParameter(name, event.currentTarget.value)}
              />
            </label>
          ))}
        </div>
        {spec.parameters.some((name) => !isTimeParameter(name)) && (
          <label class="checkbox">
            <input type="checkbox" checked={form.keysAsJson} onChange={(event) => setForm({ ...form, keysAsJson: event.currentTarget.checked })} />
            Keys are JSON values (numbers, objects); otherwise strings
          </label>
        )}
        <fieldset>
          <legend>Options (set_options; empty fields take Sluice's defaults)</legend>
          <div class="fields">
            {(["retries", "retry_backoff_ms", "query_timeout_ms", "limit"] as const).map((name) => (
              <label key={name}>
                {name}
                <input name={name} inputMode="numeric" value={form.options[name]} onInput={(event) => setOption(name, event.currentTarget.value)} />
              </label>
            ))}
          </div>
          <label class="checkbox">
            <input type="checkbox" checked={form.options.remote_access_allowed} onChange={(event) => setOption("remote_access_allowed", event.currentTarget.checked)} />
            remote_access_allowed: ask the other instances too
          </label>
        </fieldset>
        <div class="toolbar">
          <button type="submit" class="primary" disabled={running}>
            {running ? "Running…" : "Run query"}
          </button>
          <button type="button" onClick={copyCurl}>
            Copy as curl
          </button>
        </div>
      </form>
      {curl && (
        <div class="curl">
          <p role="status">{curl.copied ? "Copied to the clipboard:" : "Select and copy the command:"}</p>
          <pre data-curl>{curl.command}</pre>
        </div>
      )}
      {answer.invalid && (
        <p class="notice notice-error" role="alert">
          {answer.invalid}
        </p>
      )}
      <ErrorNotice error={answer.error} action="Query" />
      {answer.result && <QueryAnswer result={answer.result} />}
    </>
  );
}

const STATUS_BADGE: Record<QueryResult["status"], string> = { SUCCESS: "ok", PARTIAL: "warning", ERROR: "error", NO_RESULT: "warning", NOT_AVAILABLE: "warning" };

function QueryAnswer({ result }: { result: QueryResult }) {
  return (
    <section class="query-answer" aria-labelledby="answer-heading">
      <h2 id="answer-heading">Answer</h2>
      <p role="status" data-total={result.result.total}>
        <span class={`badge badge-${STATUS_BADGE[result.status]}`}>{result.status}</span> {counted(result.result.total, "record")} in {result.took} ms
        from {result.server}
        {result.timeout && <strong> — timed out before every server answered</strong>}
      </p>
      {result.result.failure.map((failure) => (
        <div key={failure.server} class="notice notice-error" role="alert">
          <strong>
            {failure.server} ({failure.remote ? "remote" : "local"}) failed:
          </strong>
          <ul>
            {failure.errors.map((error, index) => (
              <li key={index}>{error.message}</li>
            ))}
          </ul>
        </div>
      ))}
      {result.result.success.map((success) => (
        <section key={success.server} data-server={success.server}>
          <h3>
            {success.server} <span class="muted">{success.remote ? "remote" : "local"}, {counted(success.total, "record")}</span>
          </h3>
          <RecordsTable records={success.records} />
        </section>
      ))}
    </section>
  );
}

interface WindowedKey {
  key: unknown;
  window_start: number;
  window_end: number;
}

const isWindowed = (key: unknown): key is WindowedKey => typeof key === "object" && key !== null && "window_start" in key;

function RecordsTable({ records }: { records: QueryRecord[] }) {
  if (records.length === 0) return <p class="muted">No record.</p>;
  const windowed = records.some((record) => isWindowed(record.key));
  const timestamped = records.some((record) => record.timestamp !== undefined);
  const versioned = records.some((record) => record.valid_from !== undefined);
  return (
    <table class="records">
      <TableHead columns={["Key", ...(windowed ? ["Window"] : []), "Value", ...(timestamped ? ["Timestamp"] : []), ...(versioned ? ["Valid"] : [])]} />
      <tbody>
        {records.map((record, index) => (
          <tr key={index}>
            <th scope="row">{formatValue(isWindowed(record.key) ? record.key.key : record.key)}</th>
            {windowed && <td>{isWindowed(record.key) ? `${formatTimestamp(record.key.window_start)} – ${formatTimestamp(record.key.window_end)}` : ""}</td>}
            <td data-value>
              <code>{formatValue(record.value)}</code>
            </td>
            {timestamped && <td>{record.timestamp === undefined ? "" : formatTimestamp(record.timestamp)}</td>}
            {versioned && <td>{record.valid_from === undefined ? "" : `${formatTimestamp(record.valid_from)} – ${record.valid_to == null ? "now (latest)" : formatTimestamp(record.valid_to)}`}</td>}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
