/**
 * Interactive queries by one path for the REST route and for the in-process service plugins and REST extensions
 * resolve (INTERACTIVE_QUERIES): the store is looked up, the request checked as the route's body is, the query run
 * (here, and with remote access on the other instances) and its duration recorded. The service collects the answer
 * the route would send and hands it over parsed, so both answer the same.
 */
import {
  type ApplicationLookup,
  badRequest,
  type InteractiveQueries,
  type JsonSchema,
  type Logger,
  notFound,
  type PeerTransport,
  type ProcessMetrics,
  schemaViolation,
  type StoreQuery,
  type StoreQueryResult,
} from "sluice";
import type { QueryCatalog } from "./query-catalog";
import { executeQuery } from "./query-execution";
import { parseQueryRequest } from "./query-request";
import { CollectedAnswer, type AnswerOutput, type QueryStatus } from "./query-response-writer";
import type { QueryTargets } from "./query-targets";

export interface StoreQueriesOptions {
  lookup: ApplicationLookup;
  targets: QueryTargets;
  catalog: QueryCatalog;
  /** The route's body schema, which the router checks its requests against. */
  bodySchema: JsonSchema;
  defaultTimeoutMs: number;
  logger: Logger;
  /** Without the HTTP server there is no transport: other instances cannot be asked. */
  peers: PeerTransport | undefined;
  /** Where query durations are recorded, when a plugin provides process metrics. */
  metrics: ProcessMetrics | undefined;
}

export class StoreQueries implements InteractiveQueries {
  constructor(private readonly options: StoreQueriesOptions) {}

  /**
   * Runs a request of the route's body shape, its answer written to `output`; resolves once it is written. Throws
   * an HttpError (404, 400) before anything is written.
   */
  run(applicationId: string, storeName: string, body: StoreQuery, output: AnswerOutput): Promise<unknown> {
    const startedAt = Date.now();
    const began = performance.now();
    const { lookup, targets, catalog, defaultTimeoutMs, logger, peers, metrics } = this.options;
    const application = lookup.require(applicationId);
    const target = targets.of(application, storeName);
    if (!target) throw notFound(`Unknown store '${storeName}' in application '${application.id}'`);
    const request = parseQueryRequest(body, target.store, application.id, catalog, defaultTimeoutMs);
    const answered = executeQuery({ target, request, startedAt, logger, peers }, output);
    return metrics ? recordQuery(metrics, answered, target.store.type, began) : answered;
  }

  async query<K, V>(applicationId: string, store: string, request: StoreQuery): Promise<StoreQueryResult<K, V>> {
    const violation = schemaViolation(this.options.bodySchema, request);
    if (violation) throw badRequest(violation);
    const answer = new CollectedAnswer();
    await this.run(applicationId, store, request, answer);
    return JSON.parse(answer.text) as StoreQueryResult<K, V>;
  }
}

/**
 * Records the query's duration and status once its answer is written; resolves with nothing, since the answer went
 * out already. A query cut by an error is FAILED (and rejects as before).
 */
function recordQuery(metrics: ProcessMetrics, answered: Promise<QueryStatus>, storeType: string, began: number): Promise<void> {
  const record = (status: string) => metrics.query(storeType, status, (performance.now() - began) / 1000);
  return answered.then(
    (status) => record(status),
    (error: unknown) => {
      record("FAILED");
      throw error;
    },
  );
}
