/** Streams the committed entries of a window or session store over a key range, decoded for callers. */

import type { Serde } from "../../../kernel/contracts/streams/serde";
import { escapeKey, prefixEnd, unescapeKey } from "./key-layout";
import { scanRange, type ScanRange } from "./level-scan";
import type { WindowedSuffixLayout } from "./suffix-layouts";
import type { WindowedBytes } from "./windowed-bytes";
import type { ValueView } from "./value-views";
import type { TaskDatabase } from "./write-cache";

export interface WindowedSource<K, Found, Entry> {
  db: TaskDatabase;
  bytes: WindowedBytes;
  layout: WindowedSuffixLayout;
  keySerde: Serde<K>;
  view: ValueView<K, Found, Entry>;
}

/** The data rows of keys in [keyFrom, keyTo] (undefined = open): an escaped key's rows all share it as prefix. */
export function keyRange<K>(source: WindowedSource<K, unknown, unknown>, keyFrom: K | undefined, keyTo: K | undefined): ScanRange {
  const data = source.bytes.areas.data;
  const escaped = (key: K) => escapeKey(source.keySerde.serialize(key));
  return {
    gte: keyFrom === undefined ? data : Buffer.concat([data, escaped(keyFrom)]),
    lt: prefixEnd(keyTo === undefined ? data : Buffer.concat([data, escaped(keyTo)])),
  };
}

/** Entries in `range` that are not expired (as of the last commit) and whose suffix `accept`s. */
export function scanWindowed<K, Found, Entry>(
  source: WindowedSource<K, Found, Entry>,
  range: ScanRange,
  accept: (suffix: Buffer) => boolean,
  limit?: number,
): AsyncIterable<Entry> {
  const { bytes, layout, keySerde, view } = source;
  const pick = (rowKey: Buffer, value: Buffer) => {
    const suffix = rowKey.subarray(rowKey.length - layout.length);
    if (bytes.isExpired(suffix, bytes.streamTime.committed) || !accept(suffix)) return undefined;
    const { key } = unescapeKey(rowKey, bytes.areas.data.length);
    return view.entry(keySerde.deserialize(key), layout.bounds(suffix), bytes.values.decode(value));
  };
  return scanRange(source.db, range, pick, limit);
}

/** A point lookup of one entry in the committed data. */
export async function fetchCommitted<K, Found, Entry>(source: WindowedSource<K, Found, Entry>, key: K, suffix: Buffer): Promise<Found | undefined> {
  const { bytes } = source;
  if (bytes.isExpired(suffix, bytes.streamTime.committed)) return undefined;
  const stored = await source.db.get(bytes.dataKey(escapeKey(source.keySerde.serialize(key)), suffix));
  return stored === undefined ? undefined : source.view.found(bytes.values.decode(stored));
}
