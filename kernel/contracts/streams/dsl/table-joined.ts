/** How a foreign-key join names its internal topics, store and processors (Kafka Streams' TableJoined). */
export interface TableJoined {
  /**
   * Base of the names: topics `<application.id>-<name>-subscription-registration-topic` and
   * `…-<name>-subscription-response-topic`, store `<name>-subscription-store`. Default: generated names.
   */
  name?: string;
}
