/** How stored values look to callers: the value, or the value with its timestamp; for windows and sessions, as entries. */

import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { TimestampedWindowedEntry, ValueAndTimestamp, WindowedEntry } from "../../../kernel/contracts/streams/stores";
import type { WindowBounds } from "./suffix-layouts";
import type { StoredValue } from "./value-layout";

export interface ValueView<K, Found, Entry> {
  found(stored: StoredValue): Found;
  entry(key: K, bounds: WindowBounds, stored: StoredValue): Entry;
}

export function plainValueView<K, V>(valueSerde: Serde<V>): ValueView<K, V, WindowedEntry<K, V>> {
  return {
    found: (stored) => valueSerde.deserialize(stored.value),
    entry: (key, bounds, stored) => ({ key, windowStart: bounds.start, windowEnd: bounds.end, value: valueSerde.deserialize(stored.value) }),
  };
}

export function timestampedValueView<K, V>(valueSerde: Serde<V>): ValueView<K, ValueAndTimestamp<V>, TimestampedWindowedEntry<K, V>> {
  return {
    found: (stored) => ({ value: valueSerde.deserialize(stored.value), timestamp: stored.timestamp }),
    entry: (key, bounds, stored) => ({
      key,
      windowStart: bounds.start,
      windowEnd: bounds.end,
      value: valueSerde.deserialize(stored.value),
      timestamp: stored.timestamp,
    }),
  };
}
