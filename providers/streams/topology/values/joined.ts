/**
 * Kafka Streams' Joined factories, as a topology imports them from "sluice":
 * `Joined.as("orders-prices").withGracePeriod(10_000)`. Each call returns a new value.
 */
import type { Joined as JoinedType, SerdeRef } from "../../../../kernel/contracts/streams/dsl";

export class Joined<K, V, VO> implements JoinedType<K, V, VO> {
  readonly keySerde?: SerdeRef<K>;
  readonly valueSerde?: SerdeRef<V>;
  readonly otherValueSerde?: SerdeRef<VO>;
  readonly name?: string;
  readonly gracePeriodMs?: number;

  private constructor(fields: JoinedType<K, V, VO>) {
    Object.assign(this, fields);
  }

  static with<K, V, VO>(keySerde?: SerdeRef<K>, valueSerde?: SerdeRef<V>, otherValueSerde?: SerdeRef<VO>): Joined<K, V, VO> {
    return new Joined({ keySerde, valueSerde, otherValueSerde });
  }

  static as<K, V, VO>(name: string): Joined<K, V, VO> {
    return new Joined({ name });
  }

  withKeySerde(keySerde: SerdeRef<K>): Joined<K, V, VO> {
    return this.copy({ keySerde });
  }
  withValueSerde(valueSerde: SerdeRef<V>): Joined<K, V, VO> {
    return this.copy({ valueSerde });
  }
  withOtherValueSerde(otherValueSerde: SerdeRef<VO>): Joined<K, V, VO> {
    return this.copy({ otherValueSerde });
  }
  withName(name: string): Joined<K, V, VO> {
    return this.copy({ name });
  }
  /** See Joined.gracePeriodMs: a whole number of milliseconds, 0 or more. */
  withGracePeriod(gracePeriodMs: number): Joined<K, V, VO> {
    return this.copy({ gracePeriodMs });
  }

  private copy(change: JoinedType<K, V, VO>): Joined<K, V, VO> {
    return new Joined({ ...this, ...change });
  }
}
