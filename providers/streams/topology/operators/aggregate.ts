/**
 * Aggregations of a grouped stream into a table (Kafka Streams' KStreamAggregate, KStreamReduce and count): one
 * key_value store (timestamped when asked), updated per record, its updates forwarded downstream — by the store's
 * record cache once folded, when it has one. An aggregate's timestamp is the largest of its records' (the store
 * keeps it when timestamped), so a table's updates never go back in time.
 */
import type { Materialized } from "../../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../../kernel/contracts/streams/processor";
import type { KeyValueStore, TimestampedKeyValueStore } from "../../../../kernel/contracts/streams/stores";
import type { SerdeSpec } from "../../serdes/serde-resolver";
import type { GroupedStreamHandle } from "../dsl-handles";
import type { InternalProcessorContext } from "../internal-context";
import { forwardsOnFlush, keyed, statefulProcessor } from "../processor-shapes";
import { groupedValueSerde, type Aggregation, type Aggregator, type Fold } from "./grouping";

/**
 * What a count, a reduce or an aggregate does, windowed or not: how it starts, how it folds one more value in, and
 * the value serde of its store unless materialized.
 */
export interface Folding extends Fold {
  valueSerde: SerdeSpec;
}

export function countFolding(): Folding {
  return { initializer: () => 0, aggregator: (_key, _value, count: number) => count + 1, valueSerde: "long" };
}

/** Reduce: the first value of a key is its aggregate, kept with the grouping's value serde. */
export function reduceFolding(reducer: (aggregate: any, value: any) => any, grouping: GroupedStreamHandle): Folding {
  const none = Symbol("none");
  return {
    initializer: () => none,
    aggregator: (_key, value, aggregate) => (aggregate === none ? value : reducer(aggregate, value)),
    valueSerde: groupedValueSerde(grouping),
  };
}

/** A user's aggregate: its store's value serde is the configured default unless materialized. */
export function aggregateFolding(initializer: () => unknown, aggregator: Aggregator): Folding {
  return { initializer, aggregator, valueSerde: undefined };
}

/** An aggregate as stored; a plain store keeps no timestamp, which shows as -Infinity. */
export interface StoredAggregate {
  value: unknown;
  timestamp: number;
}

/** A get/put view that hides whether the key_value store is timestamped. */
interface KeyValueAccess {
  get(key: unknown): StoredAggregate | undefined;
  put(key: unknown, value: unknown, timestamp: number): void;
  /** Whether the store forwards the updates (see forwardsOnFlush). */
  forwardsOnFlush: boolean;
}

function keyValueAccess(context: InternalProcessorContext, storeName: string, timestamped: boolean): KeyValueAccess {
  if (timestamped) {
    const store = context.getStateStore<TimestampedKeyValueStore<unknown, unknown>>(storeName);
    return { get: (key) => store.get(key), put: (key, value, timestamp) => store.put(key, value, timestamp), forwardsOnFlush: forwardsOnFlush(context, store) };
  }
  const store = context.getStateStore<KeyValueStore<unknown, unknown>>(storeName);
  return { get: (key) => withoutTimestamp(store.get(key)), put: (key, value) => store.put(key, value), forwardsOnFlush: forwardsOnFlush(context, store) };
}

export function withoutTimestamp(value: unknown): StoredAggregate | undefined {
  return value === undefined ? undefined : { value, timestamp: -Infinity };
}

/** The timestamp of an aggregate that `timestamp`'s record updates: the largest of its records' (Kafka Streams'). */
export function aggregateTimestamp(previous: StoredAggregate | undefined, timestamp: number): number {
  return previous === undefined ? timestamp : Math.max(previous.timestamp, timestamp);
}

function aggregateProcessor(storeName: string, timestamped: boolean, { initializer, aggregator }: Fold): ProcessorSupplier<any, any, any, any> {
  return statefulProcessor((context) => {
    const store = keyValueAccess(context, storeName, timestamped);
    return (record) => {
      // Kafka Streams drops (and counts) records with a null key or value: there is nothing to fold in.
      if (!keyed(context, record)) return;
      if (record.value === null || record.value === undefined) return context.recordDropped();
      const previous = store.get(record.key);
      const next = aggregator(record.key, record.value, previous === undefined ? initializer() : previous.value);
      const timestamp = aggregateTimestamp(previous, record.timestamp);
      store.put(record.key, next, timestamp);
      if (!store.forwardsOnFlush) context.forward(record.withValue(next).withTimestamp(timestamp));
    };
  });
}

/** An aggregation into a key_value store (timestamped when asked), one value per key. */
export function keyValueAggregation(materialized: Materialized<any, any>): Aggregation {
  const type = materialized.storeType ?? "key_value";
  return { prefix: "aggregate", store: { type }, processor: (fold) => aggregateProcessor(materialized.storeName, type === "timestamped_key_value", fold) };
}
