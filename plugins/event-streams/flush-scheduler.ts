/**
 * Flushes the subscribers that received frames during one turn of the event loop together, once that turn's
 * sends are over: a burst leaves in one write per subscriber, and a record fanned out to many subscribers
 * costs one scheduled callback, not one per subscriber.
 */
export interface Flushable {
  flush(): void;
}

export class FlushScheduler {
  private readonly pending = new Set<Flushable>();

  request(target: Flushable): void {
    if (this.pending.size === 0) setImmediate(() => this.run());
    this.pending.add(target);
  }

  private run(): void {
    const targets = [...this.pending];
    this.pending.clear();
    for (const target of targets) target.flush();
  }
}
