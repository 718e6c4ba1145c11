/**
 * Interactive queries (docs/api.md#query-request): one engine per store family, found through
 * META-INF/services/sluice.query.QueryEngine. An engine declares the store types it answers and, for each
 * query, its parameters; the applications plugin validates requests against those declarations, routes them
 * and runs the query on the local partitions. A new store type or query is one more engine (descriptor line).
 */
import type { ReadOnlyStore, StoreType } from "./streams/stores";
import { token } from "./token";

export const QUERY_ENGINE_CONTRACT = token<QueryEngine>("sluice.query.QueryEngine");

/**
 * How a parameter is validated and decoded: `key` with the store's key serde (a JSON value), `time` as an
 * integer of epoch milliseconds (a JSON number or its string form).
 */
export type QueryParameterKind = "key" | "time";

export interface QueryParameter {
  name: string;
  kind: QueryParameterKind;
  /** A parameter the request may leave out (then absent from the arguments); required otherwise. */
  optional?: boolean;
}

/** Parameters after validation: keys decoded for the store, times as integers. */
export type QueryArguments = Readonly<Record<string, unknown>>;

/**
 * One record of an answer as it goes out in JSON: window and session stores give the key as
 * `{key, window_start, window_end}`; timestamped stores add `timestamp`; versioned stores add the version's
 * validity, `valid_from` and `valid_to` (null for the latest version).
 */
export interface QueryRecord {
  key: unknown;
  value: unknown;
  timestamp?: number;
  validity?: { from: number; to: number | null };
}

/**
 * The records of an answer: streamed (an async iterable, for scans of any size), or whole in one promise for an
 * answer of a record or a few (a point read, a count), which then costs one promise instead of an iterator's
 * promise per record and its end.
 */
export type QueryAnswer = AsyncIterable<QueryRecord> | Promise<readonly QueryRecord[]>;

export const isStreamedAnswer = (answer: QueryAnswer): answer is AsyncIterable<QueryRecord> => Symbol.asyncIterator in answer;

export interface QueryDefinition {
  /** The name in the request's `query` object, e.g. `get`, `fetch_key_range`. */
  readonly name: string;
  /** Exactly these parameters, all required but those marked optional. */
  readonly parameters: readonly QueryParameter[];
  /** Pairs of parameters `[lower, upper]` where lower must not be greater than upper. */
  readonly ordered?: readonly (readonly [string, string])[];
  /**
   * The key parameter whose partition holds the whole answer: the query then runs only on that partition,
   * and with remote access on the instance that owns it. Queries without one run on every partition.
   */
  readonly routingKey?: string;
  /**
   * The records this instance holds, from the given local partitions of the store (for a routed query, the
   * key's partition only). Stops after `limit` records when given. Records of a scan stream: nothing is buffered.
   */
  execute(stores: readonly ReadOnlyStore[], args: QueryArguments, limit: number | undefined): QueryAnswer;
}

export interface QueryEngine {
  /** Store types this engine answers; each (type, query name) pair may be declared by one engine only. */
  readonly storeTypes: readonly StoreType[];
  readonly queries: readonly QueryDefinition[];
}

/**
 * The records of several partitions one after the other, at most `limit` in all: each partition's scan is
 * asked for no more than what is still missing, so a store iterator never reads past the limit. `toRecord`
 * turns a store entry into its record here. An iterator object rather than an async generator, so that a
 * record costs one promise (the store iterator's) and no generator resumption.
 */
export function concatPartitions<S, E>(
  stores: readonly S[],
  scan: (store: S, remaining: number | undefined) => AsyncIterable<E>,
  toRecord: (entry: E, store: S) => QueryRecord,
  limit: number | undefined,
): AsyncIterableIterator<QueryRecord> {
  let remaining = limit;
  let index = 0;
  let current: AsyncIterator<E> | undefined;
  const finished: IteratorReturnResult<undefined> = { done: true, value: undefined };
  const iterator: AsyncIterableIterator<QueryRecord> = {
    [Symbol.asyncIterator]: () => iterator,
    async next(): Promise<IteratorResult<QueryRecord>> {
      while (remaining !== 0) {
        if (!current) {
          if (index >= stores.length) return finished;
          current = scan(stores[index], remaining)[Symbol.asyncIterator]();
        }
        const result = await current.next();
        if (result.done) {
          current = undefined;
          index++;
          continue;
        }
        if (remaining !== undefined) remaining--;
        return { done: false, value: toRecord(result.value, stores[index]) };
      }
      return iterator.return!();
    },
    async return(): Promise<IteratorReturnResult<undefined>> {
      remaining = 0;
      const open = current;
      current = undefined;
      await open?.return?.();
      return finished;
    },
  };
  return iterator;
}
