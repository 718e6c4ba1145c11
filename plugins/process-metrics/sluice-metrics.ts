/**
 * What Sluice records into the ProcessMetrics contract, as prom-client metrics of one registry per Sluice: HTTP
 * request durations by method, route pattern and status; interactive-query durations by store type and status;
 * event-stream subscribers and dropped events by application and stream, read from their sources at each scrape.
 */
import { Counter, Gauge, Registry } from "prom-client";
import type { EventStreamFigures, ProcessMetrics } from "sluice";
import { DurationHistogram, type DurationSeries } from "./duration-histogram";

// From a local get (a fraction of a millisecond) to a query that waits for other instances.
const DURATION_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const KNOWN_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export class SluiceMetrics implements ProcessMetrics {
  readonly registry = new Registry();
  private readonly httpDuration: DurationHistogram;
  private readonly queryDuration: DurationHistogram;
  /** Series by their label values joined. */
  private readonly series = new Map<string, DurationSeries>();
  private readonly eventStreamSources = new Set<() => Iterable<EventStreamFigures>>();

  constructor() {
    const registers = [this.registry];
    this.httpDuration = new DurationHistogram(
      "sluice_http_request_duration_seconds",
      "Time from receiving an HTTP request to the end of its answer, by method, route pattern and status",
      DURATION_BUCKETS,
      this.registry,
    );
    this.queryDuration = new DurationHistogram(
      "sluice_query_duration_seconds",
      "Time of an interactive query, by store type and answer status (FAILED: cut before its end)",
      DURATION_BUCKETS,
      this.registry,
    );
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
    const key = `h ${known} ${status} ${route}`;
    (this.series.get(key) ?? this.newSeries(key, this.httpDuration, { method: known, route, status: String(status) })).observe(seconds);
  }

  query(storeType: string, status: string, seconds: number): void {
    const key = `q ${storeType} ${status}`;
    (this.series.get(key) ?? this.newSeries(key, this.queryDuration, { store_type: storeType, status })).observe(seconds);
  }

  addEventStreamSource(source: () => Iterable<EventStreamFigures>): () => void {
    this.eventStreamSources.add(source);
    return () => this.eventStreamSources.delete(source);
  }

  private newSeries(key: string, histogram: DurationHistogram, labels: Record<string, string>): DurationSeries {
    const series = histogram.newSeries(labels);
    this.series.set(key, series);
    return series;
  }
}
