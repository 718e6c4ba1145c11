/**
 * Kafka Streams' StreamJoined factories, as a topology imports them from "sluice":
 * `StreamJoined.with("string", "json", "long").withStoreName("orders-payments")`. Each call returns a new value.
 */
import type { SerdeRef, StreamJoined as StreamJoinedType } from "../../../../kernel/contracts/streams/dsl";
import type { WindowBytesStoreSupplier } from "../../../../kernel/contracts/streams/stores";

export class StreamJoined<K, V, VO> implements StreamJoinedType<K, V, VO> {
  readonly keySerde?: SerdeRef<K>;
  readonly valueSerde?: SerdeRef<V>;
  readonly otherValueSerde?: SerdeRef<VO>;
  readonly storeName?: string;
  readonly name?: string;
  readonly topicConfig?: Readonly<Record<string, string>>;
  readonly thisStoreSupplier?: WindowBytesStoreSupplier;
  readonly otherStoreSupplier?: WindowBytesStoreSupplier;

  private constructor(fields: StreamJoinedType<K, V, VO>) {
    Object.assign(this, fields);
  }

  /** The serdes, or (Kafka Streams' other `with`) a user's own store for each stream's records. */
  static with<K, V, VO>(keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>, otherValueSerde?: SerdeRef<VO>): StreamJoined<K, V, VO>;
  static with<K, V, VO>(thisStoreSupplier: WindowBytesStoreSupplier, otherStoreSupplier: WindowBytesStoreSupplier): StreamJoined<K, V, VO>;
  static with<K, V, VO>(...args: unknown[]): StreamJoined<K, V, VO> {
    const [first, second, third] = args;
    if (typeof (first as Partial<WindowBytesStoreSupplier> | undefined)?.windowSize === "function") {
      return new StreamJoined({ thisStoreSupplier: first as WindowBytesStoreSupplier, otherStoreSupplier: second as WindowBytesStoreSupplier });
    }
    return new StreamJoined({ keySerde: first as SerdeRef<K> | undefined, valueSerde: second as SerdeRef<V> | undefined, otherValueSerde: third as SerdeRef<VO> | undefined });
  }

  /** Names the join's stores after `storeName` (see StreamJoined.storeName). */
  static as<K, V, VO>(storeName: string): StreamJoined<K, V, VO> {
    return new StreamJoined({ storeName });
  }

  withKeySerde(keySerde: SerdeRef<K>): StreamJoined<K, V, VO> {
    return this.copy({ keySerde });
  }
  withValueSerde(valueSerde: SerdeRef<V>): StreamJoined<K, V, VO> {
    return this.copy({ valueSerde });
  }
  withOtherValueSerde(otherValueSerde: SerdeRef<VO>): StreamJoined<K, V, VO> {
    return this.copy({ otherValueSerde });
  }
  withStoreName(storeName: string): StreamJoined<K, V, VO> {
    return this.copy({ storeName });
  }
  withName(name: string): StreamJoined<K, V, VO> {
    return this.copy({ name });
  }
  withThisStoreSupplier(thisStoreSupplier: WindowBytesStoreSupplier): StreamJoined<K, V, VO> {
    return this.copy({ thisStoreSupplier });
  }
  withOtherStoreSupplier(otherStoreSupplier: WindowBytesStoreSupplier): StreamJoined<K, V, VO> {
    return this.copy({ otherStoreSupplier });
  }
  /** The stores' changelogs are created with these configs (see StreamJoined.topicConfig). */
  withLoggingEnabled(topicConfig: Readonly<Record<string, string>>): StreamJoined<K, V, VO> {
    return this.copy({ topicConfig: { ...topicConfig } });
  }

  private copy(change: StreamJoinedType<K, V, VO>): StreamJoined<K, V, VO> {
    return new StreamJoined({ ...this, ...change });
  }
}
