/**
 * A stateful value mapper for tables (Kafka Streams' ValueTransformerWithKey, as KTable.transformValues takes it):
 * it sees the key but may not change it, and reads the stores it is connected to. It must compute the same value
 * for the same key and value whenever asked: a table not materialized calls it again to read its rows.
 */
import type { ProcessorContext } from "../processor";

export interface ValueTransformerWithKey<K, V, VR> {
  /** Its context may read stores and the record's metadata, not forward. */
  init?(context: ProcessorContext<never, never>): void;
  /** `value` is null for a deleted row. */
  transform(readOnlyKey: K, value: V | null): VR;
  close?(): void;
}

/** Called once per task: each task gets its own transformer. */
export type ValueTransformerWithKeySupplier<K, V, VR> = () => ValueTransformerWithKey<K, V, VR>;
