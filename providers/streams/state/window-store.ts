/** Processor-facing window and timestamped_window stores: serdes over WindowedBytes. */

import type { Serde } from "../../../kernel/contracts/streams/serde";
import type {
  TimestampedWindowedEntry,
  TimestampedWindowStore,
  ValueAndTimestamp,
  WindowedEntry,
  WindowStore,
} from "../../../kernel/contracts/streams/stores";
import { readTime } from "./key-layout";
import { locateSuffix } from "./suffix-directory";
import type { WindowSuffixLayout } from "./suffix-layouts";
import type { WindowedBytes } from "./windowed-bytes";
import type { ValueView } from "./value-views";

/** What a typed window store is built on. */
export interface WindowWiring<K, V, Found, Entry> {
  bytes: WindowedBytes;
  layout: WindowSuffixLayout;
  keySerde: Serde<K>;
  valueSerde: Serde<V>;
  view: ValueView<K, Found, Entry>;
}

abstract class TypedWindows<K, V, Found, Entry> {
  constructor(private readonly wiring: WindowWiring<K, V, Found, Entry>) {}

  get windowSizeMs(): number {
    return this.wiring.layout.windowSizeMs;
  }

  get name(): string {
    return this.wiring.bytes.name;
  }

  fetch(key: K, windowStart: number): Found | undefined {
    const { bytes, layout, keySerde, view } = this.wiring;
    const stored = bytes.read(keySerde.serialize(key), layout.encode(windowStart));
    return stored === undefined ? undefined : view.found(stored);
  }

  fetchRange(key: K, timeFrom: number, timeTo: number): Entry[] {
    const inRange = (suffix: Buffer) => {
      const start = readTime(suffix, 0);
      return start >= timeFrom && start <= timeTo;
    };
    const { bytes, layout, keySerde, view } = this.wiring;
    return bytes.list(keySerde.serialize(key), inRange).map((found) => view.entry(key, layout.bounds(found.suffix), found.stored));
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
