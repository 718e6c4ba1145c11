/**
 * `set_options` of a query request (docs/api.md#query-request): values may be JSON numbers/booleans or their string forms. The
 * router has checked the object against its schema (applications-route-specs.ts); here values are read, strings
 * included.
 */
import { badRequest } from "sluice";

export interface QueryOptions {
  retries: number;
  retryBackoffMs: number;
  queryTimeoutMs: number;
  remoteAccessAllowed: boolean;
  /** Standby tasks may answer a keyed query (num.standby.replicas): locally, or in place of an owner that fails to. */
  allowStale: boolean;
  /** At most this many records in total; undefined: no limit. */
  limit?: number;
}

function integer(name: string, value: unknown, minimum: number): number {
  const parsed = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof parsed !== "number" || !Number.isSafeInteger(parsed) || parsed < minimum) {
    const bound = minimum === 0 ? ">= 0" : "> 0";
    throw badRequest(`Option 'set_options.${name}' must be an integer ${bound}, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

function boolean(name: string, value: unknown): boolean {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw badRequest(`Option 'set_options.${name}' must be a boolean, got ${JSON.stringify(value)}`);
}

export const QUERY_OPTION_NAMES = ["retries", "retry_backoff_ms", "query_timeout_ms", "remote_access_allowed", "allow_stale", "limit"] as const;

const OPTION_SETTERS: Record<(typeof QUERY_OPTION_NAMES)[number], (options: QueryOptions, value: unknown) => void> = {
  retries: (options, value) => (options.retries = integer("retries", value, 0)),
  retry_backoff_ms: (options, value) => (options.retryBackoffMs = integer("retry_backoff_ms", value, 0)),
  query_timeout_ms: (options, value) => (options.queryTimeoutMs = integer("query_timeout_ms", value, 1)),
  remote_access_allowed: (options, value) => (options.remoteAccessAllowed = boolean("remote_access_allowed", value)),
  allow_stale: (options, value) => (options.allowStale = boolean("allow_stale", value)),
  limit: (options, value) => (options.limit = integer("limit", value, 1)),
};

export function parseQueryOptions(given: Partial<Record<keyof typeof OPTION_SETTERS, unknown>> | undefined, defaultTimeoutMs: number): QueryOptions {
  const options: QueryOptions = { retries: 0, retryBackoffMs: 100, queryTimeoutMs: defaultTimeoutMs, remoteAccessAllowed: false, allowStale: false };
  if (given === undefined) return options;
  for (const name in given) {
    const option = name as keyof typeof OPTION_SETTERS;
    OPTION_SETTERS[option](options, given[option]);
  }
  return options;
}

/** The options as a forwarded request carries them: never remote, bounded by what is left of the time. */
export function forwardedOptions(options: QueryOptions, remainingMs: number, limit: number | undefined): Record<string, unknown> {
  const forwarded: Record<string, unknown> = {
    retries: options.retries,
    retry_backoff_ms: options.retryBackoffMs,
    query_timeout_ms: Math.max(1, Math.floor(remainingMs)),
    remote_access_allowed: false,
  };
  if (options.allowStale) forwarded.allow_stale = true;
  if (limit !== undefined) forwarded.limit = limit;
  return forwarded;
}
