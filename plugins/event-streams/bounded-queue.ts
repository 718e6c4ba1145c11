/** A fixed-capacity FIFO that makes room for a new item by dropping its oldest one. */
export class BoundedQueue<T> {
  private readonly items: (T | undefined)[];
  private head = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  /** Adds `item` at the tail; returns true when the oldest item was dropped to make room (or `item` itself, at capacity 0). */
  push(item: T): boolean {
    if (this.capacity === 0) return true;
    const full = this.count === this.capacity;
    this.items[(this.head + this.count) % this.capacity] = item;
    if (full) this.head = (this.head + 1) % this.capacity;
    else this.count++;
    return full;
  }

  /** Removes and returns every item, oldest first. */
  drain(): T[] {
    const drained = new Array<T>(this.count);
    for (let i = 0; i < this.count; i++) {
      const slot = (this.head + i) % this.capacity;
      drained[i] = this.items[slot] as T;
      this.items[slot] = undefined;
    }
    this.head = 0;
    this.count = 0;
    return drained;
  }

  /** Oldest first. */
  *values(): IterableIterator<T> {
    for (let i = 0; i < this.count; i++) yield this.items[(this.head + i) % this.capacity] as T;
  }
}
