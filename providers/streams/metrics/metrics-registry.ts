/**
 * One application's metrics (docs/api.md#metrics): named metrics in groups, with description and tags. Totals are
 * counters, rates are moving-window rates, the rest are gauges read when a snapshot is taken.
 */
import type { MetricGroup } from "../../../kernel/contracts/streams/runtime";
import { MovingRate } from "./moving-rate";

type Tags = Record<string, string>;

interface Registered {
  group: string;
  name: string;
  description: string;
  tags: Tags;
  read(): number | string | null;
}

export interface Counter {
  add(amount?: number): void;
  readonly value: number;
}

/** A `-rate` and its `-total` recorded together. */
export interface RateAndTotal {
  record(amount?: number): void;
}

const metricKey = (group: string, name: string, tags: Tags) => `${group}\u0000${name}\u0000${JSON.stringify(tags)}`;

export class MetricsRegistry {
  private readonly metrics = new Map<string, Registered>();
  /** The keys of the metrics mirrored for each owner (see mirror). */
  private readonly mirrored = new Map<string, Set<string>>();

  gauge(group: string, name: string, description: string, tags: Tags, read: () => number | string | null): void {
    this.metrics.set(metricKey(group, name, tags), { group, name, description, tags, read });
  }

  counter(group: string, name: string, description: string, tags: Tags): Counter {
    const counter = { value: 0, add: (amount = 1) => void (counter.value += amount) };
    this.gauge(group, name, description, tags, () => counter.value);
    return counter;
  }

  rate(group: string, name: string, description: string, tags: Tags): MovingRate {
    const rate = new MovingRate();
    this.gauge(group, name, description, tags, () => rate.rate());
    return rate;
  }

  /** `<base>-rate` and `<base>-total`. */
  rateAndTotal(group: string, base: string, what: string, tags: Tags): RateAndTotal {
    const rate = this.rate(group, `${base}-rate`, `${what} per second`, tags);
    const total = this.counter(group, `${base}-total`, `Total ${what.toLowerCase()}`, tags);
    return {
      record: (amount = 1) => {
        rate.record(amount);
        total.add(amount);
      },
    };
  }

  remove(group: string, name: string, tags: Tags): void {
    this.metrics.delete(metricKey(group, name, tags));
  }

  /** Forgets every metric whose tags include all of `tags` (for tasks and stores that went away). */
  removeTagged(tags: Tags): void {
    for (const [key, metric] of this.metrics) {
      if (Object.entries(tags).every(([tag, value]) => metric.tags[tag] === value)) this.metrics.delete(key);
    }
  }

  /**
   * Sets the metrics `owner` read elsewhere (a worker thread's registry), with the values they had there, and
   * forgets those of its earlier ones it no longer reports.
   */
  mirror(owner: string, groups: readonly MetricGroup[]): void {
    const previous = this.mirrored.get(owner);
    const current = new Set<string>();
    for (const group of groups) {
      for (const { name, description, tags, value } of group.metrics) {
        const key = metricKey(group.name, name, tags);
        current.add(key);
        this.metrics.set(key, { group: group.name, name, description, tags, read: () => value });
      }
    }
    for (const key of previous ?? []) if (!current.has(key)) this.metrics.delete(key);
    this.mirrored.set(owner, current);
  }

  /** Forgets every metric mirrored for `owner`. */
  unmirror(owner: string): void {
    this.mirror(owner, []);
    this.mirrored.delete(owner);
  }

  snapshot(): MetricGroup[] {
    const groups = new Map<string, MetricGroup>();
    for (const metric of this.metrics.values()) {
      const group = groups.get(metric.group) ?? { name: metric.group, metrics: [] };
      group.metrics.push({ name: metric.name, description: metric.description, tags: { ...metric.tags }, value: metric.read() });
      groups.set(metric.group, group);
    }
    const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    for (const group of groups.values()) {
      group.metrics.sort((a, b) => byText(a.name, b.name) || byText(JSON.stringify(a.tags), JSON.stringify(b.tags)));
    }
    return [...groups.values()].sort((a, b) => byText(a.name, b.name));
  }
}
