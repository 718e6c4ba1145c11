/**
 * What Sluice records into the ProcessMetrics contract, as prom-client metrics of one registry per Sluice: HTTP
 * request durations by method, route pattern and status; interactive-query durations by store type and status;
 * event-stream subscribers and dropped events by application and stream, read from their sources at each scrape.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { EventStreamFigures, ProcessMetrics } from "../../kernel/contracts/process-metrics";

// From a local get (a fraction of a millisecond) to a query that waits for other instances.
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

type Observer = Histogram.Internal<string>;

export class SluiceMetrics implements ProcessMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<string>;
  private readonly queryDuration: Histogram<string>;
  /** Label children by their values joined: prom-client would otherwise hash a label object on every record. */
  private readonly observers = new Map<string, Observer>();
  private readonly eventStreamSources = new Set<() => Iterable<EventStreamFigures>>();

  constructor() {
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: "sluice_http_request_duration_seconds",
      help: "Time from receiving an HTTP request to the end of its answer, by method, route pattern and status",
      labelNames: ["method", "route", "status"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.queryDuration = new Histogram({
      name: "sluice_query_duration_seconds",
      help: "Time of an interactive query, by store type and answer status (FAILED: cut before its end)",
      labelNames: ["store_type", "status"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    const figures = () => [...this.eventStreamSources].flatMap((source) => [...source()]);
    new Gauge({
      name: "sluice_sse_subscribers",
      help: "Clients subscribed to an application's event stream",
      labelNames: ["application", "stream"],
      registers,
      collect() {
        this.reset();
        for (const { application, stream, subscribers } of figures()) this.set({ application, stream }, subscribers);
      },
    });
    new Counter({
      name: "sluice_sse_dropped_events_total",
      help: "Events that subscribers of an application's event stream lost because their buffer was full",
      labelNames: ["application", "stream"],
      registers,
      collect() {
        this.reset();
        for (const { application, stream, droppedEvents } of figures()) this.inc({ application, stream }, droppedEvents);
      },
    });
  }

  httpRequest(method: string, route: string, status: number, seconds: number): void {
    const known = KNOWN_METHODS.has(method) ? method : "OTHER";
    this.observer(this.httpDuration, `h ${known} ${status} ${route}`, [known, route, String(status)]).observe(seconds);
  }

  query(storeType: string, status: string, seconds: number): void {
    this.observer(this.queryDuration, `q ${storeType} ${status}`, [storeType, status]).observe(seconds);
  }

  addEventStreamSource(source: () => Iterable<EventStreamFigures>): () => void {
    this.eventStreamSources.add(source);
    return () => this.eventStreamSources.delete(source);
  }

  private observer(histogram: Histogram<string>, key: string, labels: string[]): Observer {
    let observer = this.observers.get(key);
    if (!observer) {
      observer = histogram.labels(...labels);
      this.observers.set(key, observer);
    }
    return observer;
  }
}
