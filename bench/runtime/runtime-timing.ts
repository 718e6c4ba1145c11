/** Timing a streams application in a bench: from a run's start (connect, topics, group join) to its last record. */
import type { StreamsRuntime } from "../../providers/streams";

/** A run that processes nothing for this long has stalled: the bench stops rather than waiting forever. */
const STALL_MS = 60_000;

/** A run's figures: seconds from its start to its first record, to a fifth of its records, and to its last. */
export interface Timing {
  firstSeconds: number;
  /** Set for runs timed by their progress. */
  fifthSeconds?: number;
  totalSeconds: number;
}

export const rate = (count: number, timing: Timing) => count / timing.totalSeconds;
/** The rate over the last four fifths of a run, past its start-up and first rebalances. */
export const steadyRate = (count: number, timing: Timing) => (count * 0.8) / (timing.totalSeconds - (timing.fifthSeconds ?? 0));
export const seconds = (from: number, to: number) => (to - from) / 1000;
export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export const startup = (timing: Timing) => `first record after ${timing.firstSeconds.toFixed(2)} s`;

/** The value of metric `name` of group `group` of application `id`, summed over its tag sets (its stream threads); 0 when it has none. */
export function metricValue(runtime: StreamsRuntime, id: string, group: string, name: string): number {
  const found = runtime.application(id)!.metrics().find((candidate) => candidate.name === group);
  return (found?.metrics ?? []).filter((metric) => metric.name === name).reduce((sum, metric) => sum + Number(metric.value ?? 0), 0);
}

export function processedTotal(runtime: StreamsRuntime, id: string): number {
  return metricValue(runtime, id, "stream-thread-metrics", "process-total");
}

/**
 * Follows a run's count of processed records to its Timing. A run that processes nothing for STALL_MS has
 * stalled: `observe` throws, naming `what` and the count.
 */
export class RunProgress {
  private first = 0;
  private fifth = 0;
  private last = { done: 0, at: Date.now() };

  constructor(
    private readonly expected: number,
    private readonly started = Date.now(),
  ) {}

  /** Notes that `done` records are processed; answers whether all are. */
  observe(done: number, what: () => string): boolean {
    const now = Date.now();
    if (done > 0 && this.first === 0) this.first = now;
    if (done >= this.expected / 5 && this.fifth === 0) this.fifth = now;
    if (done > this.last.done) this.last = { done, at: now };
    else if (now - this.last.at > STALL_MS) throw new Error(`${what()} processed nothing for ${STALL_MS / 1000} s after ${done} of ${this.expected} records`);
    return done >= this.expected;
  }

  timing(): Timing {
    return { firstSeconds: seconds(this.started, this.first), fifthSeconds: seconds(this.started, this.fifth), totalSeconds: seconds(this.started, Date.now()) };
  }
}

/** Runs the application until it has processed `expected` records; `progress` sees each tenth. */
export async function timeRuntime(runtime: StreamsRuntime, id: string, expected: number, progress: (tenth: number) => void = () => undefined): Promise<Timing> {
  const started = Date.now();
  await runtime.start();
  const run = new RunProgress(expected, started);
  let tenth = 0;
  for (;;) {
    const done = processedTotal(runtime, id);
    const finished = run.observe(done, () => `${id} (state ${runtime.application(id)?.state})`);
    while (tenth < 10 && done >= ((tenth + 1) * expected) / 10) progress(++tenth);
    if (finished) return run.timing();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
