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
import { WindowedBytes, type StreamTime } from "./windowed-bytes";
import type { StoreCounters, TaskDatabase } from "./write-cache";

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

export interface StoreFaces {
  /** Window and session stores: their core, for retention and stream time. */
  windowed?: WindowedBytes;
  /** Key-value stores: their core, whose key index a rangeable store builds. */
  keyValue?: KeyValueBytes;
  processor: ProcessorStore;
  readOnly: ReadOnlyStore;
  /** Applies one changelog record without emitting one. */
  applyChangelog(key: Buffer, value: Buffer | null, timestamp: number): void;
}

function keyValueBytes({ spec, areas, counters, context }: OpenerInput, values: ValueLayout): KeyValueBytes {
  return new KeyValueBytes(spec.name, areas, values, counters, context, spec.caching !== false);
}

function windowedBytes(input: OpenerInput, layout: WindowedSuffixLayout, values: ValueLayout): WindowedBytes {
  const { spec, areas, counters, streamTime, context } = input;
  const retentionMs = spec.retentionMs ?? DEFAULT_RETENTION_MS;
  return new WindowedBytes(spec.name, areas, layout, values, retentionMs, counters, streamTime, context);
}

function windowLayout(spec: StoreSpec) {
  if (spec.windowSizeMs === undefined || !(spec.windowSizeMs > 0)) {
    throw new Error(`store ${spec.name} (${spec.type}) needs a positive windowSizeMs`);
  }
  return windowSuffixLayout(spec.windowSizeMs);
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
  window(input) {
    const { spec, db, context } = input;
    const layout = windowLayout(spec);
    const bytes = windowedBytes(input, layout, plainValues);
    const wiring = { bytes, layout, keySerde: spec.keySerde, valueSerde: spec.valueSerde, view: plainValueView(spec.valueSerde) };
    return {
      windowed: bytes,
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
  const opener = OPENERS[input.spec.type];
  if (!opener) throw new Error(`store ${input.spec.name} has unknown type ${JSON.stringify(input.spec.type)}`);
  return opener(input);
}
