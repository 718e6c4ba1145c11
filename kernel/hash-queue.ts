/**
 * Password hashing, bounded: the HTTP side's scrypt and the broker's PLAIN check (PBKDF2) run on libuv's thread
 * pool, which file I/O and compression share too, so a flood of logins must not fill it. At most `concurrency`
 * hashes run at once, `queueSize` more wait, and past that the caller learns at once (a 503 with Retry-After, a
 * failed SASL authentication) instead of joining a queue that only grows.
 */
export class HashQueueFull extends Error {
  constructor(readonly queueSize: number) {
    super(`${queueSize} logins are already waiting for a password check`);
  }
}

export class HashQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly concurrency: number, private readonly queueSize: number) {}

  /** Runs `work` when a slot is free; rejects with HashQueueFull, without running it, when the queue is full. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency && this.waiting.length >= this.queueSize) return Promise.reject(new HashQueueFull(this.queueSize));
    return new Promise<void>((resolve) => {
      if (this.running < this.concurrency) {
        this.running++;
        resolve();
      } else this.waiting.push(resolve);
    })
      .then(work)
      .finally(() => this.release());
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
