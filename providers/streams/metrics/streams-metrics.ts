/**
 * Kafka Streams' StreamsMetrics for processors: sensors whose metrics live in the application's registry beside the
 * runtime's own, so `/metrics` shows them in JSON and Prometheus alike. A sensor above `metrics.recording.level`
 * records nothing.
 */
import type { MetricName, RecordingLevel, Sensor, SensorStat, StreamsMetrics } from "../../../kernel/contracts/streams/processor";
import type { MetricsRegistry } from "./metrics-registry";
import { MovingRate } from "./moving-rate";

export const RECORDING_LEVELS: readonly RecordingLevel[] = ["INFO", "DEBUG", "TRACE"];

type Tags = { [tag: string]: string };

/** One statistic over a sensor's values. */
interface Stat {
  record(value: number): void;
  read(): number | null;
}

function statOf(kind: SensorStat): Stat {
  switch (kind) {
    case "rate": {
      const rate = new MovingRate();
      return { record: () => rate.record(), read: () => rate.rate() };
    }
    case "total":
    case "count":
    case "avg":
    case "max":
    case "min":
    case "value": {
      const seen = { count: 0, total: 0, max: Number.NEGATIVE_INFINITY, min: Number.POSITIVE_INFINITY, last: Number.NaN };
      const read: Record<typeof kind, () => number | null> = {
        total: () => seen.total,
        count: () => seen.count,
        avg: () => (seen.count === 0 ? null : seen.total / seen.count),
        max: () => (seen.count === 0 ? null : seen.max),
        min: () => (seen.count === 0 ? null : seen.min),
        value: () => (seen.count === 0 ? null : seen.last),
      };
      return {
        record(value) {
          seen.count++;
          seen.total += value;
          seen.max = Math.max(seen.max, value);
          seen.min = Math.min(seen.min, value);
          seen.last = value;
        },
        read: read[kind],
      };
    }
  }
}

class RegistrySensor implements Sensor {
  private readonly stats: Stat[] = [];
  readonly metricKeys: { group: string; name: string; tags: Tags }[] = [];

  constructor(
    readonly name: string,
    private readonly recording: boolean,
    private readonly registry: MetricsRegistry,
    private readonly parents: readonly RegistrySensor[],
  ) {}

  shouldRecord(): boolean {
    return this.recording;
  }

  record(value = 1): void {
    if (!this.recording) return;
    for (const stat of this.stats) stat.record(value);
    for (const parent of this.parents) parent.record(value);
  }

  add(metric: MetricName, stat: SensorStat): boolean {
    const tags = { ...metric.tags };
    if (this.metricKeys.some((key) => key.group === metric.group && key.name === metric.name && JSON.stringify(key.tags) === JSON.stringify(tags))) return false;
    const measured = statOf(stat);
    this.stats.push(measured);
    this.metricKeys.push({ group: metric.group, name: metric.name, tags });
    this.registry.gauge(metric.group, metric.name, metric.description ?? `${stat} of sensor ${this.name}`, tags, () => measured.read());
    return true;
  }
}

/** A processor's StreamsMetrics; `tags` name its thread and task, as Kafka Streams tags its metrics. */
export function streamsMetrics(registry: MetricsRegistry, level: RecordingLevel, tags: Tags): StreamsMetrics {
  const sensors = new Map<string, RegistrySensor>();
  const records = (wanted: RecordingLevel) => RECORDING_LEVELS.indexOf(wanted) <= RECORDING_LEVELS.indexOf(level);
  const sensor = (name: string, recordingLevel: RecordingLevel = "INFO", parents: Sensor[] = []): RegistrySensor => {
    let found = sensors.get(name);
    if (found === undefined) {
      found = new RegistrySensor(name, records(recordingLevel), registry, parents as RegistrySensor[]);
      sensors.set(name, found);
    }
    return found;
  };
  const operationSensor = (scope: string, entity: string, operation: string, level: RecordingLevel | undefined, extra: Tags | undefined, latency: boolean) => {
    const group = `stream-${scope}-metrics`;
    const metricTags = { ...tags, [`${scope}-id`]: entity, ...extra };
    const made = sensor(`${scope}.${entity}.${operation}`, level);
    if (latency) {
      made.add({ name: `${operation}-latency-avg`, group, description: `Average latency of ${operation} of ${entity}`, tags: metricTags }, "avg");
      made.add({ name: `${operation}-latency-max`, group, description: `Longest latency of ${operation} of ${entity}`, tags: metricTags }, "max");
    }
    made.add({ name: `${operation}-rate`, group, description: `${operation} of ${entity} per second`, tags: metricTags }, "rate");
    made.add({ name: `${operation}-total`, group, description: `Total ${operation} of ${entity}`, tags: metricTags }, "count");
    return made;
  };
  return {
    addLatencyRateTotalSensor: (scope, entity, operation, recordingLevel, extra) => operationSensor(scope, entity, operation, recordingLevel, extra, true),
    addRateTotalSensor: (scope, entity, operation, recordingLevel, extra) => operationSensor(scope, entity, operation, recordingLevel, extra, false),
    addSensor: (name, recordingLevel, parents) => sensor(name, recordingLevel, parents),
    removeSensor(removed) {
      const known = sensors.get(removed.name);
      if (known === undefined) return;
      sensors.delete(removed.name);
      for (const { group, name, tags: metricTags } of known.metricKeys) registry.remove(group, name, metricTags);
    },
  };
}
