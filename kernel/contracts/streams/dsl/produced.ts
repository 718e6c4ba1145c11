/** How a sink writes its topic (Kafka Streams' Produced). */
import type { SerdeRef } from "./serde-ref";

export interface Produced<K, V> {
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Name of the sink node. */
  name?: string;
}
