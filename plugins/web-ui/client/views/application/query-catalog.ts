/** The interactive queries of each store type and their parameters (docs/api.md#query-request), from which the query form is built. */
import type { StoreType } from "../../api/sluice-types";

export interface QuerySpec {
  name: string;
  /** Names starting with `key` take a key, those starting with `time` (and `as_of`) epoch milliseconds. */
  parameters: readonly string[];
  /** Parameters that may be left empty: then they are not sent. */
  optional?: readonly string[];
}

const KEY_VALUE: readonly QuerySpec[] = [
  { name: "get", parameters: ["key"] },
  { name: "range", parameters: ["key_from", "key_to"] },
  { name: "all", parameters: [] },
  { name: "count", parameters: [] },
];

const WINDOW: readonly QuerySpec[] = [
  { name: "fetch", parameters: ["key", "time"] },
  { name: "fetch_key_range", parameters: ["key_from", "key_to", "time_from", "time_to"] },
  { name: "fetch_time_range", parameters: ["key", "time_from", "time_to"] },
  { name: "fetch_all", parameters: ["time_from", "time_to"] },
];

const SESSION: readonly QuerySpec[] = [
  { name: "fetch", parameters: ["key"] },
  { name: "fetch_key_range", parameters: ["key_from", "key_to"] },
];

/** Without as_of, the latest version. */
const VERSIONED: readonly QuerySpec[] = [{ name: "get", parameters: ["key", "as_of"], optional: ["as_of"] }];

export const QUERIES: Record<StoreType, readonly QuerySpec[]> = {
  key_value: KEY_VALUE,
  timestamped_key_value: KEY_VALUE,
  versioned_key_value: VERSIONED,
  window: WINDOW,
  timestamped_window: WINDOW,
  session: SESSION,
};

export const isTimeParameter = (name: string) => name.startsWith("time") || name === "as_of";

/** What a time parameter starts with: the last hour, ending now; as_of empty (the latest version). */
export function defaultTime(name: string, now = Date.now()): string {
  if (name === "as_of") return "";
  return String(name === "time_to" ? now : now - 3_600_000);
}

export interface QueryOptionsForm {
  retries: string;
  retry_backoff_ms: string;
  query_timeout_ms: string;
  limit: string;
  remote_access_allowed: boolean;
}

export interface QueryForm {
  type: StoreType;
  query: string;
  parameters: Record<string, string>;
  /** Keys typed as JSON values (numbers, objects) rather than strings. */
  keysAsJson: boolean;
  options: QueryOptionsForm;
}

/** The request body of the form, or an error naming the field that cannot be sent. */
export function queryBody(form: QueryForm): { body: unknown } | { error: string } {
  const spec = QUERIES[form.type].find((query) => query.name === form.query);
  if (!spec) return { error: `A ${form.type} store has no query '${form.query}'` };
  const parameters: Record<string, unknown> = {};
  for (const name of spec.parameters) {
    const text = (form.parameters[name] ?? "").trim();
    if (text === "" && spec.optional?.includes(name)) continue;
    if (isTimeParameter(name)) {
      if (!/^-?\d+$/.test(text)) return { error: `${name} must be a time in epoch milliseconds` };
      parameters[name] = Number(text);
    } else if (form.keysAsJson) {
      try {
        parameters[name] = JSON.parse(text);
      } catch {
        return { error: `${name} is not a JSON value: ${text === "" ? "empty" : text}` };
      }
    } else {
      parameters[name] = form.parameters[name] ?? "";
    }
  }
  const options: Record<string, unknown> = { remote_access_allowed: form.options.remote_access_allowed };
  for (const name of ["retries", "retry_backoff_ms", "query_timeout_ms", "limit"] as const) {
    const text = form.options[name].trim();
    if (text === "") continue;
    if (!/^\d+$/.test(text)) return { error: `${name} must be a whole number` };
    options[name] = Number(text);
  }
  return { body: { type: form.type, set_options: options, query: { [form.query]: parameters } } };
}
