/**
 * A table every instance holds whole (Kafka Streams' GlobalKTable): read from every partition of its topic into a
 * global store, caught up before the instance's tasks process anything and kept up to date while they run. A
 * stream joins it through a key selector, with no repartition and no co-partitioning (KStream.join(GlobalKTable,
 * ...)): each stream record looks its row up when it is processed, as the store has it then.
 */
export interface GlobalKTable<K, V> {
  /** The name of the global store, which every instance answers queries on (Kafka Streams' queryableStoreName). */
  queryableStoreName(): string;
  /** Phantom members: the table's key and value types, for joins. */
  readonly __key?: K;
  readonly __value?: V;
}
