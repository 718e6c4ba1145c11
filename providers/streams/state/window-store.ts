/** Processor-facing window and timestamped_window stores: serdes over WindowedBytes. */

import type { Header } from "../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { Windowed } from "../../../kernel/contracts/streams/dsl/windows";
import type {
  KeyValueIterator,
  TimestampedWindowedEntry,
  TimestampedWindowStore,
  ValueAndTimestamp,
  WindowedEntry,
  WindowStore,
} from "../../../kernel/contracts/streams/stores";
import { readTime } from "./key-layout";
import { locateSuffix } from "./suffix-directory";
import type { WindowSuffixLayout } from "./suffix-layouts";
import { flatIndexedIterator, listIterator } from "./key-value-iterator";
import type { WindowedBytes, WindowedEntryBytes } from "./windowed-bytes";
import { WindowIterationOverloads } from "./window-iteration";
import type { ValueView } from "./value-views";

/** What a typed window store is built on. */
export interface WindowWiring<K, V, Found, Entry> {
  bytes: WindowedBytes;
  layout: WindowSuffixLayout;
  keySerde: Serde<K>;
  valueSerde: Serde<V>;
  view: ValueView<K, Found, Entry>;
}

abstract class TypedWindows<K, V, Found, Entry> extends WindowIterationOverloads<K, Found> {
  constructor(private readonly wiring: WindowWiring<K, V, Found, Entry>) {
    super();
  }

  get windowSizeMs(): number {
    return this.wiring.layout.windowSizeMs;
  }

  get name(): string {
    return this.wiring.bytes.name;
  }

  fetchRange(key: K, timeFrom: number, timeTo: number): Entry[] {
    const { layout, view } = this.wiring;
    return this.listed(this.wiring.keySerde.serialize(key), timeFrom, timeTo).map((found) => view.entry(key, layout.bounds(found.suffix), found.stored));
  }

  protected fetchWindow(key: K, windowStart: number): Found | undefined {
    const { bytes, layout, keySerde, view } = this.wiring;
    const stored = bytes.read(keySerde.serialize(key), layout.encode(windowStart));
    return stored === undefined ? undefined : view.found(stored);
  }

  /** The key's windows with a start in [timeFrom, timeTo], by start (or reversed). */
  private listed(key: Buffer, timeFrom: number, timeTo: number, reverse = false): WindowedEntryBytes[] {
    const inRange = (suffix: Buffer) => {
      const start = readTime(suffix, 0);
      return start >= timeFrom && start <= timeTo;
    };
    const found = this.wiring.bytes.list(key, inRange);
    return reverse ? found.reverse() : found;
  }

  protected startsOf(key: K, timeFrom: number, timeTo: number, reverse: boolean): KeyValueIterator<number, Found> {
    const { layout, view } = this.wiring;
    const entries = this.listed(this.wiring.keySerde.serialize(key), timeFrom, timeTo, reverse).map((found) => ({ key: layout.bounds(found.suffix).start, value: view.found(found.stored) }));
    return listIterator(entries);
  }

  protected windowsOf(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number, reverse: boolean): KeyValueIterator<Windowed<K>, Found> {
    const { bytes, layout, keySerde, view } = this.wiring;
    const bound = (key: K | undefined) => (key === undefined || key === null ? undefined : keySerde.serialize(key));
    return flatIndexedIterator(bytes.keyIds(bound(keyFrom), bound(keyTo), reverse), (id) => {
      const keyBytes = Buffer.from(id, "latin1");
      const found = this.listed(keyBytes, timeFrom, timeTo, reverse);
      if (found.length === 0) return [];
      const key = keySerde.deserialize(keyBytes);
      return found.map(({ suffix, stored }) => {
        const { start, end } = layout.bounds(suffix);
        return { key: { key, windowStart: start, windowEnd: end }, value: view.found(stored) };
      });
    });
  }

  /** See WindowedBytes.forwardOnFlush: the listener gets the windowed key (key, windowStart, windowEnd) and the values deserialized. */
  forwardOnFlush(listener: (key: Windowed<K>, value: V | null, timestamp: number, headers: readonly Header[] | undefined, oldValue: V | null) => void, withOldValues = false): boolean {
    const { bytes, layout, keySerde, valueSerde } = this.wiring;
    const deserialize = (value: Buffer | null) => (value === null ? null : valueSerde.deserialize(value));
    return bytes.forwardOnFlush((key, suffix, value, timestamp, headers, oldValue) => {
      const { start, end } = layout.bounds(suffix);
      listener({ key: keySerde.deserialize(key), windowStart: start, windowEnd: end }, deserialize(value), timestamp, headers, deserialize(oldValue));
    }, withOldValues);
  }

  /**
   * A store that retains duplicates adds a window beside those with the same start, and skips a null value (as Kafka
   * Streams does: no one window of several could be named to delete).
   */
  protected writeAt(key: K, value: V | null, windowStart: number, timestamp: number): void {
    const { bytes, layout, keySerde, valueSerde } = this.wiring;
    const keyBytes = keySerde.serialize(key);
    if (!layout.retainsDuplicates) {
      bytes.write(keyBytes, layout.encode(windowStart), value === null ? null : valueSerde.serialize(value), timestamp);
    } else if (value !== null) {
      bytes.write(keyBytes, this.nextDuplicate(keyBytes, windowStart), valueSerde.serialize(value), timestamp);
    }
  }

  /**
   * The suffix of one more window of the key at `windowStart`: numbered after the last one there, read from the key's
   * directory, so that the numbers a restored store hands out continue where the crashed run's stopped.
   */
  private nextDuplicate(keyBytes: Buffer, windowStart: number): Buffer {
    const { bytes, layout } = this.wiring;
    const suffixes = bytes.suffixesOf(keyBytes);
    const { index, found } = locateSuffix(suffixes, layout.last(windowStart));
    if (found) throw new Error(`store ${bytes.name} holds the most windows one key may have at ${windowStart}`);
    const previous = suffixes[index - 1];
    const follows = previous !== undefined && readTime(previous, 0) === windowStart;
    return layout.encode(windowStart, follows ? layout.sequence(previous) + 1 : 0);
  }
}

export class LevelWindowStore<K, V> extends TypedWindows<K, V, V, WindowedEntry<K, V>> implements WindowStore<K, V> {
  readonly type = "window";

  constructor(wiring: WindowWiring<K, V, V, WindowedEntry<K, V>>, private readonly currentTimestamp: () => number) {
    super(wiring);
  }

  put(key: K, value: V | null, windowStart: number): void {
    this.writeAt(key, value, windowStart, this.currentTimestamp());
  }
}

export class LevelTimestampedWindowStore<K, V>
  extends TypedWindows<K, V, ValueAndTimestamp<V>, TimestampedWindowedEntry<K, V>>
  implements TimestampedWindowStore<K, V>
{
  readonly type = "timestamped_window";

  put(key: K, value: V | null, windowStart: number, timestamp: number): void {
    this.writeAt(key, value, windowStart, timestamp);
  }
}
