/**
 * How a stream-table join serializes and names what it keeps (Kafka Streams' Joined): the serdes of the stream's key
 * and value (used by a repartition topic and by the grace buffer), the table's value serde, the join's name, and its
 * grace period (KIP-923). A plain object, or made with the `Joined` factory that "sluice" exports.
 */
import type { SerdeRef } from "./serde-ref";

export interface Joined<K, V, VO> {
  readonly keySerde?: SerdeRef<K>;
  readonly valueSerde?: SerdeRef<V>;
  readonly otherValueSerde?: SerdeRef<VO>;
  /** The join processor's name; the grace buffer's store is `<name>-Buffer`. */
  readonly name?: string;
  /**
   * With a versioned table only: each stream record waits in a buffer until the stream time the join has seen passes
   * its timestamp by this much, then joins, in timestamp order, the table row valid at its timestamp — so a table
   * update that arrives late, within the grace, is seen. A record already older than that joins at once.
   * Undefined: no buffer, each record joins as it arrives.
   */
  readonly gracePeriodMs?: number;
}
