import { token } from "./token";

/**
 * Process-wide metrics (GET /metrics), recorded into by whoever sees the events when a plugin provides them: the
 * HTTP server records every answered request, the applications API every interactive query, the event streams
 * report their subscribers. Without such a plugin nothing is registered under the token and nothing is recorded.
 */
export const PROCESS_METRICS = token<ProcessMetrics>("sluice.kernel.ProcessMetrics");

/** The route of a request that matched no route pattern (one value, so that unknown paths add no label values). */
export const UNMATCHED_ROUTE = "unmatched";

/** One event stream of one application, as it stands at a scrape. */
export interface EventStreamFigures {
  application: string;
  stream: string;
  subscribers: number;
  /** Events subscribers lost to a full buffer since the stream was made, left subscribers included. */
  droppedEvents: number;
}

/** Called on hot paths: an implementation records in memory and does nothing slow. */
export interface ProcessMetrics {
  /** An answered request: `route` is the pattern of the route (`/api/v1/streams/:id`), never the path, or UNMATCHED_ROUTE. */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** An interactive query: the store's type and the answer's status (SUCCESS, PARTIAL, …, or FAILED when it could not finish). */
  query(storeType: string, status: string, seconds: number): void;
  /** Adds a source read at every scrape; returns the function that removes it. */
  addEventStreamSource(source: () => Iterable<EventStreamFigures>): () => void;
}
