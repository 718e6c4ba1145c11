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
import type { windowSuffixLayout } from "./suffix-layouts";
import type { WindowedBytes } from "./windowed-bytes";
import type { ValueView } from "./value-views";

type WindowLayout = ReturnType<typeof windowSuffixLayout>;

/** What a typed window store is built on. */
export interface WindowWiring<K, V, Found, Entry> {
  bytes: WindowedBytes;
  layout: WindowLayout;
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

  protected writeAt(key: K, value: V | null, windowStart: number, timestamp: number): void {
    const { bytes, layout, keySerde, valueSerde } = this.wiring;
    bytes.write(keySerde.serialize(key), layout.encode(windowStart), value === null ? null : valueSerde.serialize(value), timestamp);
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
