/** How an explicit repartition names, sizes and serializes its topic (Kafka Streams' Repartitioned). */
import type { SerdeRef } from "./serde-ref";

export interface Repartitioned<K, V> {
  /** Names the topic `<application.id>-<name>-repartition`; default: a generated name. */
  name?: string;
  /**
   * Partitions of the topic. Default: as many as the inputs it is read with (those of the sub-topology that
   * reads it), or else as the sub-topology that writes it.
   */
  numberOfPartitions?: number;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
}
