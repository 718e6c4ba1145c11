/** How a source reads its topic (Kafka Streams' Consumed). */
import type { TimestampExtractor, TimestampExtractorName } from "../processor";
import type { SerdeRef } from "./serde-ref";

export interface Consumed<K, V> {
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Name of the source node. */
  name?: string;
  /** How the source's records get their event time (Consumed.withTimestampExtractor); default `default.timestamp.extractor`. */
  timestampExtractor?: TimestampExtractor | TimestampExtractorName;
}
