/**
 * How a stream-stream join serializes and names what it keeps (Kafka Streams' StreamJoined): each side's records sit in
 * a window store, and a left or outer join's records that wait for their window to close in a shared store. A plain
 * object, or made with the `StreamJoined` factory that "sluice" exports.
 */
import type { WindowBytesStoreSupplier } from "../stores";
import type { SerdeRef } from "./serde-ref";

export interface StreamJoined<K, V, VO> {
  readonly keySerde?: SerdeRef<K>;
  /** This stream's values in its window store; default: the stream's serde. */
  readonly valueSerde?: SerdeRef<V>;
  /** The other stream's values in its window store. */
  readonly otherValueSerde?: SerdeRef<VO>;
  /**
   * Base of the stores' names: `<storeName>-this-join-store` and `<storeName>-other-join-store` (`-outer-this-join`
   * for the left side of an outer join, `-outer-other-join` for the right side of a left or outer one), and
   * `<storeName>-left-shared-join-store` / `-outer-shared-join-store`; their changelogs are named after them. Default:
   * generated from the join's name.
   */
  readonly storeName?: string;
  /** Base of the join's processor names (`<name>-this-windowed`, `<name>-this-join`, `<name>-merge`, ...). */
  readonly name?: string;
  /**
   * Configs of the stores' changelog topics when Sluice creates them, over its own (the window stores' changelogs are
   * `cleanup.policy=delete`, kept a day beyond the windows, as in Kafka Streams).
   */
  readonly topicConfig?: Readonly<Record<string, string>>;
  /**
   * A user's own store for this stream's records (Kafka Streams' withThisStoreSupplier), named by the supplier (and
   * naming a left or outer join's shared store: `<name>-left-shared-join-store` / `-outer-shared-join-store`). As in
   * Kafka Streams it must retain duplicates, its window size must be the join windows' size (before + after) and its
   * retention that size plus the grace.
   */
  readonly thisStoreSupplier?: WindowBytesStoreSupplier;
  /** The same for the other stream's records (withOtherStoreSupplier); its name must differ from this one's. */
  readonly otherStoreSupplier?: WindowBytesStoreSupplier;
}
