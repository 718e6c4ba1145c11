/**
 * What every table operator shares, as Kafka Streams' KTable internals have it:
 * - a table's processors forward each change of a row as a Change (new value, and the old one when a downstream
 *   operator asked for old values: enableSendingOldValues);
 * - a table is read through its view (KTableValueGetterSupplier): its own store when materialized, otherwise its
 *   parent's rows with the operator applied again — a join or a derived table reads rows so;
 * - a materialized table writes its store and forwards through it (TimestampedTupleForwarder): with a record cache,
 *   the cache forwards each key's folded change when it flushes, else each change goes at once.
 */
import type { KeyValueStore, StateStore, TimestampedKeyValueStore, ValueAndTimestamp, VersionedKeyValueStore } from "../../../kernel/contracts/streams/stores";
import { PUT_RETURN_CODE_NOT_PUT } from "../../../kernel/contracts/streams/stores";
import { StreamsRecord } from "../processor/record";
import type { FlushForwarding, InternalProcessorContext } from "./internal-context";
import type { Rec } from "./processor-shapes";

import { change } from "../serdes/change-serde";

export { change, type Change } from "../serdes/change-serde";

/** A table row: its value and the timestamp of the record that made it (-1: unknown). */
export type Row = ValueAndTimestamp<unknown>;

export const UNKNOWN_TIMESTAMP = -1;

/** Reads a table's rows (Kafka Streams' KTableValueGetter); undefined: no row. */
export interface RowReader {
  get(key: unknown): Row | undefined;
  /** A versioned table's reader: the row valid at `asOf` (Kafka Streams' get(key, asOfTimestamp)). */
  getAsOf?(key: unknown, asOf: number): Row | undefined;
}

/** How to read a table's rows (Kafka Streams' KTableValueGetterSupplier). */
export interface TableView {
  /** The stores the reader reads: a processor that reads the table is connected to them. */
  readonly storeNames: readonly string[];
  /** Made once per task, when the processor that reads is initialized. */
  reader(context: InternalProcessorContext): RowReader;
}

/** What a table's operator answers to the operators downstream (Kafka Streams' KTableProcessorSupplier). */
export interface TableOperator {
  /**
   * Asks the operator to forward old values too; returns whether it does. Without `forceMaterialization`, a table
   * that keeps no store declines (its downstream then does without), with it, it materializes itself.
   */
  sendOldValues(forceMaterialization: boolean): boolean;
  view(): TableView;
}

/** A table row store, timestamped or not (Kafka Streams' KeyValueStoreWrapper): a null value deletes the row. */
export interface TableStore extends RowReader {
  /**
   * Returns whether the update was stored: false for a versioned table's update older than its history retention,
   * which Kafka Streams neither stores nor forwards (an update older than the latest version is stored as a version
   * and forwarded all the same).
   */
  put(key: unknown, value: unknown, timestamp: number): boolean;
  /** The processor-facing store, for its record cache. */
  readonly store: object;
}

export function tableStore(context: InternalProcessorContext, storeName: string): TableStore {
  const store = context.getStateStore<StateStore>(storeName);
  if (store.type === "timestamped_key_value") {
    const timestamped = store as TimestampedKeyValueStore<unknown, unknown>;
    return {
      store,
      get: (key) => timestamped.get(key),
      put: (key, value, timestamp) => {
        timestamped.put(key, value ?? null, timestamp);
        return true;
      },
    };
  }
  if (store.type === "versioned_key_value") {
    const versioned = store as VersionedKeyValueStore<unknown, unknown>;
    const row = (version: { value: unknown; timestamp: number } | undefined): Row | undefined => (version === undefined ? undefined : { value: version.value, timestamp: version.timestamp });
    return {
      store,
      get: (key) => row(versioned.get(key)),
      getAsOf: (key, asOf) => row(versioned.get(key, asOf)),
      put: (key, value, timestamp) => versioned.put(key, value ?? null, timestamp) !== PUT_RETURN_CODE_NOT_PUT,
    };
  }
  if (store.type === "key_value") {
    const plain = store as KeyValueStore<unknown, unknown>;
    return {
      store,
      get: (key) => {
        const value = plain.get(key);
        return value === undefined ? undefined : { value, timestamp: UNKNOWN_TIMESTAMP };
      },
      put: (key, value) => {
        plain.put(key, value ?? null);
        return true;
      },
    };
  }
  throw new Error(`store '${storeName}' is a ${store.type} store: a table is kept in a key_value, timestamped_key_value or versioned_key_value store`);
}

/** The view of a table kept in its own store (Kafka Streams' KTableMaterializedValueGetterSupplier). */
export function materializedView(storeName: string): TableView {
  return { storeNames: [storeName], reader: (context) => tableStore(context, storeName) };
}

/** Sends a table processor's change downstream: the record's key and timestamp, the change as its value. */
export type ChangeForward = (record: Rec, newValue: unknown, oldValue: unknown) => void;

/**
 * How a table processor forwards (Kafka Streams' TimestampedTupleForwarder): when it writes `store` and the store's
 * record cache may hold its forwards back, the cache forwards each change as it flushes (with its old value when
 * `sendOldValues`) and the processor forwards nothing itself; otherwise each change goes at once, its old value only
 * when `sendOldValues`.
 */
export function changeForwarder(context: InternalProcessorContext, store: TableStore | undefined, sendOldValues: boolean): ChangeForward {
  if (store !== undefined && forwardsOnFlush(context, store.store, sendOldValues)) return () => undefined;
  return sendOldValues
    ? (record, newValue, oldValue) => context.forward(record.withValue(change(newValue, oldValue)))
    : (record, newValue) => context.forward(record.withValue(change(newValue, null)));
}

/**
 * Has the store's record cache forward the processor's changes once folded (Kafka Streams' flush listener); false
 * when the processor forwards each change itself: the store has no cache, or a repartition topic is downstream.
 */
export function forwardsOnFlush(context: InternalProcessorContext, store: object, sendOldValues: boolean): boolean {
  const forwarding = store as Partial<FlushForwarding>;
  return (
    typeof forwarding.forwardOnFlush === "function" &&
    context.forwardsMayWait() &&
    forwarding.forwardOnFlush(
      (key, value, timestamp, headers, oldValue) => context.forward(new StreamsRecord(key, change(value, sendOldValues ? oldValue : null), timestamp, headers)),
      sendOldValues,
    )
  );
}
