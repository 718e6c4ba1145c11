/** How a source reads its topic (Kafka Streams' Consumed). */
import type { SerdeRef } from "./serde-ref";

export interface Consumed<K, V> {
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Name of the source node. */
  name?: string;
}
