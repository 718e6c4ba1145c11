/**
 * Serializes the writes of one log and coalesces them: items pushed while a write is in flight are handed
 * to the next `write` call together, so many small appends cost one system call. Other exclusive work
 * (segment deletion, closing) runs in the same order, never overlapping a write.
 */

export type WriteOutcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

interface Waiting<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

export class SerialWriteQueue<T, R> {
  private tail: Promise<void> = Promise.resolve();
  private waiting: Waiting<T, R>[] = [];

  /** `write` gets every item pending at that moment and returns one outcome per item, in order. */
  constructor(private readonly write: (items: T[]) => Promise<WriteOutcome<R>[]>) {}

  push(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      if (this.waiting.push({ item, resolve, reject }) === 1) this.tail = this.tail.then(() => this.flush());
    });
  }

  /** Runs `task` after the writes already scheduled, never overlapping a write. */
  exclusive<V>(task: () => Promise<V>): Promise<V> {
    const run = this.tail.then(task);
    this.tail = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    let outcomes: WriteOutcome<R>[];
    try {
      outcomes = await this.write(batch.map((waiting) => waiting.item));
    } catch (error) {
      outcomes = batch.map(() => ({ ok: false, error }));
    }
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
  }
}
