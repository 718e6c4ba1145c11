/** A user's own key-value store for tests of custom store suppliers (KeyValueBytesStoreSupplier). */
import type { KeyValue, KeyValueBytesStore, KeyValueBytesStoreSupplier } from "../../kernel/contracts/streams/stores";

/** An in-memory store over a Map, keys kept in byte order, counting each call. */
export class CountingStore implements KeyValueBytesStore {
  readonly entries = new Map<string, Buffer>();
  readonly calls = { get: 0, put: 0, delete: 0, range: 0, flush: 0, close: 0 };

  get(key: Buffer): Buffer | undefined {
    this.calls.get++;
    return this.entries.get(key.toString("latin1"));
  }
  put(key: Buffer, value: Buffer): void {
    this.calls.put++;
    this.entries.set(key.toString("latin1"), value);
  }
  delete(key: Buffer): Buffer | undefined {
    this.calls.delete++;
    const removed = this.entries.get(key.toString("latin1"));
    this.entries.delete(key.toString("latin1"));
    return removed;
  }
  *range(from: Buffer | undefined, to: Buffer | undefined): Iterable<KeyValue<Buffer, Buffer>> {
    this.calls.range++;
    const keys = [...this.entries.keys()].map((id) => Buffer.from(id, "latin1")).sort(Buffer.compare);
    for (const key of keys) {
      const inRange = (from === undefined || Buffer.compare(key, from) >= 0) && (to === undefined || Buffer.compare(key, to) <= 0);
      if (inRange) yield { key, value: this.entries.get(key.toString("latin1"))! };
    }
  }
  approximateNumEntries(): number {
    return this.entries.size;
  }
  flush(): void {
    this.calls.flush++;
  }
  close(): void {
    this.calls.close++;
  }
}

/** A supplier that keeps the stores it made, for the test to look into. */
export function countingSupplier(name: string): KeyValueBytesStoreSupplier & { made: CountingStore[] } {
  const made: CountingStore[] = [];
  return {
    name,
    made,
    get: () => {
      const store = new CountingStore();
      made.push(store);
      return store;
    },
    metricsScope: () => "counting",
  };
}
