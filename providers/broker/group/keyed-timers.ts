/**
 * One-shot timers addressed by key: setting a key replaces its previous timer. Every timer is unref'd so a
 * forgotten coordinator never keeps the process alive.
 */
export class KeyedTimers {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  set(key: string, delayMs: number, onExpire: () => void): void {
    this.cancel(key);
    const timer = setTimeout(() => {
      this.timers.delete(key);
      onExpire();
    }, Math.max(0, delayMs));
    timer.unref();
    this.timers.set(key, timer);
  }

  cancel(key: string): void {
    const timer = this.timers.get(key);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(key);
  }

  has(key: string): boolean {
    return this.timers.has(key);
  }

  cancelAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
