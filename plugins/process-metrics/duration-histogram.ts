/**
 * A histogram of durations for what is recorded on every request: observing is a bucket search and three additions
 * into a series the caller keeps. prom-client's Histogram hashes the labels and finds the bucket through
 * number-keyed properties on each observation, a few microseconds per request on this machine. It joins a prom-client
 * Registry as a metric of its own and exports what prom-client's histogram exports: cumulative `_bucket` samples with
 * `le` (then `+Inf`), `_sum` and `_count` per series.
 */
import type { Metric, Registry } from "prom-client";

/** A sample as prom-client's metrics give them to the registry. */
interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  /** The series' labels, printed after the sample's own. */
  sharedLabels?: Readonly<Record<string, string>>;
  value: number;
}

/** A metric as the registry reads it. */
interface MetricData {
  name: string;
  help: string;
  type: "histogram";
  aggregator: "sum";
  values: Sample[];
}

export class DurationSeries {
  /** Observations per bucket (not cumulative); above the last bound only in `count`. */
  private readonly counts: Float64Array;
  private sum = 0;
  private count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    private readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length);
  }

  reset(): void {
    this.counts.fill(0);
    this.sum = 0;
    this.count = 0;
  }

  observe(seconds: number): void {
    const { bounds } = this;
    let bucket = 0;
    while (bucket < bounds.length && seconds > bounds[bucket]) bucket++;
    if (bucket < bounds.length) this.counts[bucket]++;
    this.sum += seconds;
    this.count++;
  }

  /** prom-client's samples of the series: the series' labels are shared, each bucket adds its `le`. */
  samples(name: string): Sample[] {
    const shared = this.labels;
    const samples: Sample[] = [];
    let cumulative = 0;
    this.bounds.forEach((bound, bucket) => {
      cumulative += this.counts[bucket];
      samples.push({ metricName: `${name}_bucket`, labels: { le: bound }, sharedLabels: shared, value: cumulative });
    });
    samples.push({ metricName: `${name}_bucket`, labels: { le: "+Inf" }, sharedLabels: shared, value: this.count });
    samples.push({ metricName: `${name}_sum`, labels: {}, sharedLabels: shared, value: this.sum });
    samples.push({ metricName: `${name}_count`, labels: {}, sharedLabels: shared, value: this.count });
    return samples;
  }
}

export class DurationHistogram {
  readonly type = "histogram" as const;
  readonly aggregator = "sum" as const;
  private readonly series: DurationSeries[] = [];

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** A new series with these labels, to observe into; the caller keeps it for their values. */
  newSeries(labels: Record<string, string>): DurationSeries {
    const series = new DurationSeries(labels, this.bounds);
    this.series.push(series);
    return series;
  }

  /** The samples as the registry prints them: each sample's own labels, then the series' (as prom-client's). */
  async get(): Promise<MetricData> {
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values: this.series.flatMap((series) => series.samples(this.name)) };
  }

  /** Zeroes every series; the callers' series stay the ones exported. */
  reset(): void {
    for (const series of this.series) series.reset();
  }
}
