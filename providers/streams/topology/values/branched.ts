/** Kafka Streams' Branched factories, as a topology imports them from "sluice": `Branched.as("name")` and the like. */
import type { Branched as BranchedType, KStream } from "../../../../kernel/contracts/streams/dsl";

export type Branched<K, V> = BranchedType<K, V>;

export const Branched = {
  /** A branch named `name`, its stream put in the map as it is. */
  as<K, V>(name: string): Branched<K, V> {
    return { name };
  },
  /** The branch's stream goes through `chain`; its result is put in the map. */
  withFunction<K, V>(chain: (branch: KStream<K, V>) => KStream<K, V> | null | undefined, name?: string): Branched<K, V> {
    return { name, withFunction: chain };
  },
  /** The branch's stream goes to `consumer`; the branch is not put in the map. */
  withConsumer<K, V>(consumer: (branch: KStream<K, V>) => void, name?: string): Branched<K, V> {
    return { name, withConsumer: consumer };
  },
};
