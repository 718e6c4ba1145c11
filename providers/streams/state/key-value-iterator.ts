/**
 * A processor's walk over a store (Kafka Streams' KeyValueIterator): the entries a `pull` function gives one at a
 * time, each read as the walk reaches it, so a walk over a large store holds one entry at a time.
 */
import type { KeyValue, KeyValueIterator } from "../../../kernel/contracts/streams/stores";

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export class PulledIterator<K, V> implements KeyValueIterator<K, V> {
  private next_: KeyValue<K, V> | undefined;
  private closed = false;

  /** `pull()`: the next entry, or undefined at the end. */
  constructor(private readonly pull: () => KeyValue<K, V> | undefined) {}

  [Symbol.iterator](): IterableIterator<KeyValue<K, V>> {
    return this;
  }

  next(): IteratorResult<KeyValue<K, V>> {
    const entry = this.advance();
    this.next_ = undefined;
    return entry === undefined ? DONE : { done: false, value: entry };
  }

  peekNextKey(): K | undefined {
    return this.advance()?.key;
  }

  close(): void {
    this.closed = true;
    this.next_ = undefined;
  }

  /** The entry the next step returns, pulled once. */
  private advance(): KeyValue<K, V> | undefined {
    if (this.next_ === undefined && !this.closed) this.next_ = this.pull();
    return this.next_;
  }
}

/** A walk over the keys of a store's index (see KeyIndex); `read(id)`: the entry of the key whose latin1 is `id`, or undefined when it is gone. */
export function indexedIterator<K, V>(ids: readonly string[], read: (id: string) => KeyValue<K, V> | undefined): KeyValueIterator<K, V> {
  let position = 0;
  return new PulledIterator(() => {
    while (position < ids.length) {
      const entry = read(ids[position++]);
      if (entry !== undefined) return entry;
    }
    return undefined;
  });
}

/** A walk over the keys of a store's index, each with several entries (a window or session store's); `entriesOf(id)` lists a key's. */
export function flatIndexedIterator<K, V>(ids: readonly string[], entriesOf: (id: string) => readonly KeyValue<K, V>[]): KeyValueIterator<K, V> {
  let position = 0;
  let entries: readonly KeyValue<K, V>[] = [];
  let index = 0;
  return new PulledIterator(() => {
    while (index >= entries.length) {
      if (position >= ids.length) return undefined;
      entries = entriesOf(ids[position++]);
      index = 0;
    }
    return entries[index++];
  });
}

/** A walk over entries already listed. */
export function listIterator<K, V>(entries: readonly KeyValue<K, V>[]): KeyValueIterator<K, V> {
  let position = 0;
  return new PulledIterator(() => entries[position++]);
}
