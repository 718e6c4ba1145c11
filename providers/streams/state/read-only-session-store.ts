/** Query-facing session store over the committed data. */

import type { RangeOptions, ReadOnlySessionStore, WindowedEntry } from "../../../kernel/contracts/streams/stores";
import { keyRange, scanWindowed, type WindowedSource } from "./windowed-scan";

export class LevelReadOnlySessionStore<K, V> implements ReadOnlySessionStore<K, V> {
  constructor(private readonly source: WindowedSource<K, V, WindowedEntry<K, V>>) {}

  fetch(key: K, options: RangeOptions = {}): AsyncIterable<WindowedEntry<K, V>> {
    return this.fetchKeyRange(key, key, options);
  }

  fetchKeyRange(keyFrom: K | undefined, keyTo: K | undefined, options: RangeOptions = {}): AsyncIterable<WindowedEntry<K, V>> {
    return scanWindowed(this.source, keyRange(this.source, keyFrom, keyTo), () => true, options.limit);
  }

  async approximateNumEntries(): Promise<number> {
    return this.source.bytes.counters.entries;
  }
}
