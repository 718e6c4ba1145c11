/** How a grouping names and serializes its repartition topic (Kafka Streams' Grouped). */
import type { SerdeRef } from "./serde-ref";

export interface Grouped<K, V> {
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Names the repartition topic `<application.id>-<name>-repartition` when the key changed. */
  name?: string;
}
