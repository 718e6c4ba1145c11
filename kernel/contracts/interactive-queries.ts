/**
 * Interactive queries for plugins and REST extensions: what POST /api/v1/applications/{id}/stores/{store} answers
 * (docs/api.md, "Interactive queries"), asked in the process and answered as an object. The applications plugin
 * provides it; a plugin lists the token in `requires`, a REST extension resolves it from its context's components.
 */
import type { JsonValue } from "./json-serializer";
import type { StoreType } from "./streams/stores";
import { token } from "./token";

export const INTERACTIVE_QUERIES = token<InteractiveQueries>("sluice.query.InteractiveQueries");

/** `set_options` of a query: the route's, with the same defaults. */
export interface StoreQueryOptions {
  /** Tries again this many times while the store is not queryable (default 0). */
  retries?: number;
  /** Between those tries (default 100). */
  retry_backoff_ms?: number;
  /** The whole query, other instances included (default `server.query.timeout.ms`). */
  query_timeout_ms?: number;
  /**
   * Also ask the application's other instances: a keyed query goes to the instance that owns its key, the others to
   * every instance hosting the store (default false: this instance's partitions only).
   */
  remote_access_allowed?: boolean;
  /** At most this many records in all. */
  limit?: number;
}

/** The request body of the route: the store's type and exactly one query, by name, with its parameters. */
export interface StoreQuery {
  type: StoreType;
  /** e.g. `{ get: { key: "fox" } }`, `{ range: { key_from: "a", key_to: "m" } }`, `{ all: {} }` (docs/api.md lists them all). */
  query: Record<string, Record<string, unknown>>;
  set_options?: StoreQueryOptions;
}

/** A record as JSON renders it: window and session stores give the key as `{ key, window_start, window_end }`. */
export interface StoreQueryRecord<K = JsonValue, V = JsonValue> {
  key: K;
  value: V;
  /** Timestamped stores only. */
  timestamp?: number;
}

export interface StoreQuerySuccess<K = JsonValue, V = JsonValue> {
  /** `host:port` of the instance that answered. */
  server: string;
  remote: boolean;
  total: number;
  records: StoreQueryRecord<K, V>[];
  /** With `allow_stale`: whether a standby task answered (not the active one)… */
  standby?: boolean;
  /** …and how many changelog records its copy was behind (0 for an active task). */
  lag?: number;
}

export interface StoreQueryFailure {
  /** Null for a group member that advertises no `application.server`, then named by `member_id`. */
  server: string | null;
  member_id?: string;
  remote: boolean;
  errors: { message: string }[];
}

export type StoreQueryStatus = "SUCCESS" | "PARTIAL" | "ERROR" | "NO_RESULT" | "NOT_AVAILABLE";

export interface StoreQueryResult<K = JsonValue, V = JsonValue> {
  /** This instance's `host:port`. */
  server: string;
  result: { success: StoreQuerySuccess<K, V>[]; failure: StoreQueryFailure[]; total: number };
  /** Milliseconds. */
  took: number;
  timeout: boolean;
  status: StoreQueryStatus;
}

export interface InteractiveQueries {
  /**
   * Runs `request` on `store` of the application `applicationId` as the REST route runs it, and resolves with the
   * route's answer. `K` and `V` say what the records' keys and values are, as JSON. Rejects with an `HttpError` as the
   * route answers: 404 for an unknown application or store, 400 for a request it refuses (the message names the
   * field); a REST extension's handler that lets it through answers the same error. Queries forwarded to other
   * instances are signed with the instance secret, as the route's are.
   */
  query<K = JsonValue, V = JsonValue>(applicationId: string, store: string, request: StoreQuery): Promise<StoreQueryResult<K, V>>;
}
