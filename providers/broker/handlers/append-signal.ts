/**
 * Wakes long-polling fetches when a batch is appended to a partition they read. A fetch starts watching
 * before it reads, so an append between its read and its wait is not missed.
 */
import type { LogStore } from "../storage/log-store";

export interface AppendWatch {
  /** Resolves at the first append to a watched partition after the watch began, or at the deadline. */
  until(deadlineMs: number): Promise<void>;
  cancel(): void;
}

interface Watcher {
  fired: boolean;
  wake: (() => void) | null;
  readonly keys: string[];
}

const keyOf = (topic: string, partition: number): string => `${partition}:${topic}`;

export class AppendSignal {
  private readonly watchers = new Map<string, Set<Watcher>>();
  private readonly all = new Set<Watcher>();
  private isClosed = false;

  constructor(store: LogStore) {
    store.onAppend((topic, partition) => this.notify(keyOf(topic, partition)));
  }

  /** After close, nothing is appended any more: fetches answer with what they have. */
  get closed(): boolean {
    return this.isClosed;
  }

  watch(partitions: Iterable<{ topic: string; partition: number }>): AppendWatch {
    const watcher: Watcher = { fired: this.isClosed, wake: null, keys: [] };
    if (watcher.fired) return { until: () => Promise.resolve(), cancel: () => undefined };
    for (const { topic, partition } of partitions) {
      const key = keyOf(topic, partition);
      watcher.keys.push(key);
      let set = this.watchers.get(key);
      if (!set) this.watchers.set(key, (set = new Set()));
      set.add(watcher);
    }
    this.all.add(watcher);
    return {
      until: (deadlineMs) => this.wait(watcher, deadlineMs),
      cancel: () => this.fire(watcher),
    };
  }

  /** Releases every waiting fetch (the broker is closing). */
  close(): void {
    this.isClosed = true;
    for (const watcher of [...this.all]) this.fire(watcher);
  }

  private wait(watcher: Watcher, deadlineMs: number): Promise<void> {
    if (watcher.fired) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.fire(watcher), Math.max(0, deadlineMs - Date.now()));
      watcher.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private notify(key: string): void {
    const set = this.watchers.get(key);
    if (!set) return;
    for (const watcher of [...set]) this.fire(watcher);
  }

  private fire(watcher: Watcher): void {
    if (watcher.fired) return;
    watcher.fired = true;
    this.all.delete(watcher);
    for (const key of watcher.keys) {
      const set = this.watchers.get(key);
      set?.delete(watcher);
      if (set?.size === 0) this.watchers.delete(key);
    }
    watcher.wake?.();
  }
}
