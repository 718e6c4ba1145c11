/** Builds each store type's byte-level core, processor-facing store and query-facing store: one opener per type. */

import type { ProcessorStore, ReadOnlyStore, StoreSpec, StoreType } from "../../../kernel/contracts/streams/stores";
import type { StoreAreas } from "./key-layout";
import { KeyValueBytes } from "./key-value-bytes";
import { LevelKeyValueStore, LevelTimestampedKeyValueStore } from "./key-value-store";
import { LevelReadOnlyKeyValueStore } from "./read-only-key-value-store";
import { LevelReadOnlySessionStore } from "./read-only-session-store";
import { LevelReadOnlyWindowStore } from "./read-only-window-store";
import { LevelSessionStore } from "./session-store";
import type { StoreContext } from "./store-context";
import { sessionSuffixLayout, windowSuffixLayout, type WindowedSuffixLayout } from "./suffix-layouts";
import { plainValues, timestampedValues, type ValueLayout } from "./value-layout";
import { plainValueView, timestampedValueView } from "./value-views";
import { LevelTimestampedWindowStore, LevelWindowStore } from "./window-store";
import { sweepExpired } from "./retention-sweep";
import { openSuppliedKeyValueStore } from "./supplied-key-value-store";
import { openSuppliedWindowedStore } from "./supplied-windowed-store";
import { VersionedBytes } from "./versioned-bytes";
import { LevelReadOnlyVersionedKeyValueStore, LevelVersionedKeyValueStore } from "./versioned-store";
import { WindowedBytes, type StreamTime } from "./windowed-bytes";
import type { CacheLayer, StoreCounters, TaskDatabase, WriteCache } from "./write-cache";

export const DEFAULT_RETENTION_MS = 24 * 60 * 60 * 1000;

/** What an opener needs; counters and stream time come from the checkpoint. */
export interface OpenerInput {
  spec: StoreSpec;
  db: TaskDatabase;
  context: StoreContext;
  areas: StoreAreas;
  counters: StoreCounters;
  streamTime: StreamTime;
}

/**
 * A store whose entries expire as its stream time passes them (window, session and versioned stores): its stream
 * time is checkpointed, and each commit deletes what expired.
 */
export interface ExpiringStore {
  readonly streamTime: StreamTime;
  /** Adds the deletion of what expired at `streamTime` to the commit's layer; returns how many entries. */
  sweep(db: TaskDatabase, cache: WriteCache, layer: CacheLayer, streamTime: number): Promise<number>;
}

export interface StoreFaces {
  expiring?: ExpiringStore;
  /** Key-value stores: their core, whose key index a rangeable store builds. */
  keyValue?: KeyValueBytes;
  /** Window and session stores: their core, whose key index a rangeable store builds. */
  windowed?: WindowedBytes;
  processor: ProcessorStore;
  readOnly: ReadOnlyStore;
  /** Applies one changelog record without emitting one. */
  applyChangelog(key: Buffer, value: Buffer | null, timestamp: number): void;
  /** A store the user supplied: told of each commit, and of the task's closing. */
  flush?(): void;
  close?(): void;
}

function keyValueBytes({ spec, areas, counters, context }: OpenerInput, values: ValueLayout): KeyValueBytes {
  return new KeyValueBytes(spec.name, areas, values, counters, context, spec.caching !== false);
}

/** A store that retains duplicates is never cached, as Kafka Streams' window store builders disable caching for it. */
function windowedBytes(input: OpenerInput, layout: WindowedSuffixLayout, values: ValueLayout): WindowedBytes {
  const { spec, areas, counters, streamTime, context } = input;
  const retentionMs = spec.retentionMs ?? DEFAULT_RETENTION_MS;
  const caching = spec.caching !== false && spec.retainDuplicates !== true;
  return new WindowedBytes(spec.name, areas, layout, values, retentionMs, counters, streamTime, context, caching);
}

/** A join's window store may be 0 ms wide (it joins records of the same timestamp); an aggregation's may not. */
function windowLayout(spec: StoreSpec) {
  const retainsDuplicates = spec.retainDuplicates === true;
  const size = spec.windowSizeMs;
  if (size === undefined || !(retainsDuplicates ? size >= 0 : size > 0)) {
    throw new Error(`store ${spec.name} (${spec.type}) needs a ${retainsDuplicates ? "non-negative" : "positive"} windowSizeMs`);
  }
  return windowSuffixLayout(size, retainsDuplicates);
}

function windowedExpiry(bytes: WindowedBytes): ExpiringStore {
  return { streamTime: bytes.streamTime, sweep: (db, cache, layer, streamTime) => sweepExpired(db, cache, layer, bytes, streamTime) };
}

const OPENERS: Record<StoreType, (input: OpenerInput) => StoreFaces> = {
  key_value(input) {
    const { spec, db, context } = input;
    const bytes = keyValueBytes(input, plainValues);
    return {
      keyValue: bytes,
      processor: new LevelKeyValueStore(bytes, spec.keySerde, spec.valueSerde, context.currentTimestamp),
      readOnly: { type: "key_value", store: new LevelReadOnlyKeyValueStore(db, bytes, spec.keySerde, plainValueView(spec.valueSerde).found) },
      applyChangelog: (key, value, timestamp) => bytes.apply(key, value, timestamp),
    };
  },
  timestamped_key_value(input) {
    const { spec, db } = input;
    const bytes = keyValueBytes(input, timestampedValues);
    const found = timestampedValueView(spec.valueSerde).found;
    return {
      keyValue: bytes,
      processor: new LevelTimestampedKeyValueStore(bytes, spec.keySerde, spec.valueSerde),
      readOnly: { type: "timestamped_key_value", store: new LevelReadOnlyKeyValueStore(db, bytes, spec.keySerde, found) },
      applyChangelog: (key, value, timestamp) => bytes.apply(key, value, timestamp),
    };
  },
  versioned_key_value(input) {
    const { spec, db, areas, counters, streamTime, context } = input;
    if (spec.historyRetentionMs === undefined || !(spec.historyRetentionMs >= 0)) throw new Error(`store ${spec.name} (versioned_key_value) needs a historyRetentionMs of 0 or more`);
    const bytes = new VersionedBytes(spec.name, areas, spec.historyRetentionMs, counters, streamTime, context);
    return {
      expiring: bytes,
      processor: new LevelVersionedKeyValueStore(bytes, spec.keySerde, spec.valueSerde),
      readOnly: { type: "versioned_key_value", store: new LevelReadOnlyVersionedKeyValueStore(db, bytes, spec.keySerde, spec.valueSerde) },
      applyChangelog: (key, value, timestamp) => void bytes.apply(key, value, timestamp),
    };
  },
  window(input) {
    const { spec, db, context } = input;
    const layout = windowLayout(spec);
    const bytes = windowedBytes(input, layout, plainValues);
    const wiring = { bytes, layout, keySerde: spec.keySerde, valueSerde: spec.valueSerde, view: plainValueView(spec.valueSerde) };
    return {
      windowed: bytes,
      expiring: windowedExpiry(bytes),
      processor: new LevelWindowStore(wiring, context.currentTimestamp),
      readOnly: { type: "window", store: new LevelReadOnlyWindowStore({ db, ...wiring }) },
      applyChangelog: (key, value, timestamp) => bytes.applyChangelog(key, value, timestamp),
    };
  },
  timestamped_window(input) {
    const { spec, db } = input;
    const layout = windowLayout(spec);
    const bytes = windowedBytes(input, layout, timestampedValues);
    const wiring = { bytes, layout, keySerde: spec.keySerde, valueSerde: spec.valueSerde, view: timestampedValueView(spec.valueSerde) };
    return {
      windowed: bytes,
      expiring: windowedExpiry(bytes),
      processor: new LevelTimestampedWindowStore(wiring),
      readOnly: { type: "timestamped_window", store: new LevelReadOnlyWindowStore({ db, ...wiring }) },
      applyChangelog: (key, value, timestamp) => bytes.applyChangelog(key, value, timestamp),
    };
  },
  session(input) {
    const { spec, db, context } = input;
    const bytes = windowedBytes(input, sessionSuffixLayout, plainValues);
    const view = plainValueView(spec.valueSerde);
    return {
      windowed: bytes,
      expiring: windowedExpiry(bytes),
      processor: new LevelSessionStore(bytes, spec.keySerde, spec.valueSerde, view, context.currentTimestamp),
      readOnly: {
        type: "session",
        store: new LevelReadOnlySessionStore({ db, bytes, layout: sessionSuffixLayout, keySerde: spec.keySerde, view }),
      },
      applyChangelog: (key, value, timestamp) => bytes.applyChangelog(key, value, timestamp),
    };
  },
};

export function openStoreFaces(input: OpenerInput): StoreFaces {
  const { spec, context, streamTime } = input;
  if (spec.bytesStoreSupplier !== undefined) {
    const windowed = spec.type === "window" || spec.type === "timestamped_window" || spec.type === "session";
    return windowed ? openSuppliedWindowedStore(spec, context, streamTime) : openSuppliedKeyValueStore(spec, context);
  }
  const opener = OPENERS[input.spec.type];
  if (!opener) throw new Error(`store ${input.spec.name} has unknown type ${JSON.stringify(input.spec.type)}`);
  return opener(input);
}
