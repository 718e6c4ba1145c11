/**
 * Kafka Streams' StreamJoined factories, as a topology imports them from "sluice":
 * `StreamJoined.with("string", "json", "long").withStoreName("orders-payments")`. Each call returns a new value.
 */
import type { SerdeRef, StreamJoined as StreamJoinedType } from "../../../../kernel/contracts/streams/dsl";

export class StreamJoined<K, V, VO> implements StreamJoinedType<K, V, VO> {
  readonly keySerde?: SerdeRef<K>;
  readonly valueSerde?: SerdeRef<V>;
  readonly otherValueSerde?: SerdeRef<VO>;
  readonly storeName?: string;
  readonly name?: string;
  readonly topicConfig?: Readonly<Record<string, string>>;

  private constructor(fields: StreamJoinedType<K, V, VO>) {
    Object.assign(this, fields);
  }

  static with<K, V, VO>(keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>, otherValueSerde?: SerdeRef<VO>): StreamJoined<K, V, VO> {
    return new StreamJoined({ keySerde, valueSerde, otherValueSerde });
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
  /** The stores' changelogs are created with these configs (see StreamJoined.topicConfig). */
  withLoggingEnabled(topicConfig: Readonly<Record<string, string>>): StreamJoined<K, V, VO> {
    return this.copy({ topicConfig: { ...topicConfig } });
  }

  private copy(change: StreamJoinedType<K, V, VO>): StreamJoined<K, V, VO> {
    return new StreamJoined({ ...this, ...change });
  }
}
