/** Query-facing window and timestamped_window stores over the committed data. */

import type { RangeOptions, ReadOnlyWindowStoreOf } from "../../../kernel/contracts/streams/stores";
import { escapeKey, readTime } from "./key-layout";
import type { WindowSuffixLayout } from "./suffix-layouts";
import { fetchCommitted, keyRange, scanWindowed, type WindowedSource } from "./windowed-scan";

export class LevelReadOnlyWindowStore<K, Found, Entry> implements ReadOnlyWindowStoreOf<K, Found, Entry> {
  constructor(private readonly source: WindowedSource<K, Found, Entry> & { layout: WindowSuffixLayout }) {}

  fetch(key: K, windowStart: number): Promise<Found | undefined> {
    return fetchCommitted(this.source, key, this.source.layout.encode(windowStart));
  }

  fetchTimeRange(key: K, timeFrom: number, timeTo: number, options: RangeOptions = {}): AsyncIterable<Entry> {
    const { bytes, layout, keySerde } = this.source;
    const escapedKey = escapeKey(keySerde.serialize(key));
    const range = { gte: bytes.dataKey(escapedKey, layout.encode(timeFrom)), lte: bytes.dataKey(escapedKey, layout.last(timeTo)) };
    return scanWindowed(this.source, range, () => true, options.limit);
  }

  fetchKeyRange(keyFrom: K | undefined, keyTo: K | undefined, timeFrom: number, timeTo: number, options: RangeOptions = {}): AsyncIterable<Entry> {
    const startsInRange = (suffix: Buffer) => {
      const start = readTime(suffix, 0);
      return start >= timeFrom && start <= timeTo;
    };
    return scanWindowed(this.source, keyRange(this.source, keyFrom, keyTo), startsInRange, options.limit);
  }

  fetchAll(timeFrom: number, timeTo: number, options: RangeOptions = {}): AsyncIterable<Entry> {
    return this.fetchKeyRange(undefined, undefined, timeFrom, timeTo, options);
  }

  async approximateNumEntries(): Promise<number> {
    return this.source.bytes.counters.entries;
  }
}
