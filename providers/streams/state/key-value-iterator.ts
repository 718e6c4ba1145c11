/** A processor's walk over the keys of a key-value store's index (see KeyIndex), reading each value as it goes. */
import type { KeyValue, KeyValueIterator } from "../../../kernel/contracts/streams/stores";

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export class IndexedIterator<K, V> implements KeyValueIterator<K, V> {
  private position = 0;
  private next_: KeyValue<K, V> | undefined;

  /** `read(id)`: the entry of the key whose latin1 is `id`, or undefined when it is gone. */
  constructor(
    private readonly ids: readonly string[],
    private readonly read: (id: string) => KeyValue<K, V> | undefined,
  ) {}

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
    this.position = this.ids.length;
    this.next_ = undefined;
  }

  /** The entry the next step returns, read once. */
  private advance(): KeyValue<K, V> | undefined {
    while (this.next_ === undefined && this.position < this.ids.length) this.next_ = this.read(this.ids[this.position++]);
    return this.next_;
  }
}
