/** Events per second over a moving window of one-second buckets. */
export class MovingRate {
  private readonly buckets: Float64Array;
  private readonly bucketSeconds: Float64Array;
  private readonly startedAt: number;
  /** Events tallied since the last settle, not in a bucket yet. */
  private unsettled = 0;

  constructor(private readonly windowSeconds = 30, private readonly clock: () => number = Date.now) {
    this.buckets = new Float64Array(windowSeconds);
    this.bucketSeconds = new Float64Array(windowSeconds).fill(-1);
    this.startedAt = clock();
  }

  record(amount = 1): void {
    const second = Math.floor(this.clock() / 1000);
    const index = second % this.windowSeconds;
    if (this.bucketSeconds[index] !== second) {
      this.bucketSeconds[index] = second;
      this.buckets[index] = 0;
    }
    this.buckets[index] += amount;
  }

  /**
   * Counts one event without reading the clock, for events counted by the million: it goes into the bucket of the
   * second of the next `settle()` or `rate()`, which the counter's owner calls at least every second or so.
   */
  tally(): void {
    this.unsettled++;
  }

  settle(): void {
    if (this.unsettled === 0) return;
    const tallied = this.unsettled;
    this.unsettled = 0;
    this.record(tallied);
  }

  rate(): number {
    this.settle();
    const now = this.clock();
    const second = Math.floor(now / 1000);
    let sum = 0;
    for (let i = 0; i < this.windowSeconds; i++) {
      if (this.bucketSeconds[i] > second - this.windowSeconds) sum += this.buckets[i];
    }
    const elapsedSeconds = Math.min(this.windowSeconds, Math.max((now - this.startedAt) / 1000, 1));
    return sum / elapsedSeconds;
  }
}
