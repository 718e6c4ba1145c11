/** Where a topology starts (Kafka Streams' StreamsBuilder), and the stores Processor API processors declare. */
import type { ProcessorSupplier } from "../processor";
import type { BytesStoreSupplier, StoreType } from "../stores";
import type { Consumed } from "./consumed";
import type { GlobalKTable } from "./global-ktable";
import type { KStream, KTable } from "./kstream";
import type { Materialized } from "./materialized";
import type { SerdeRef } from "./serde-ref";

/** A state store that Processor API processors connect to by name. */
export interface StoreDeclaration<K = unknown, V = unknown> {
  name: string;
  type: StoreType;
  keySerde?: SerdeRef<K>;
  valueSerde?: SerdeRef<V>;
  /** Window stores: the window size. */
  windowSizeMs?: number;
  /** Window and session stores: how long data is kept. */
  retentionMs?: number;
  /** Window stores: each put adds a window beside those of the same key and start (Kafka Streams' retainDuplicates). */
  retainDuplicates?: boolean;
  /** Versioned key-value stores: how long replaced versions stay readable, and how late a put may come (KIP-889). */
  historyRetentionMs?: number;
  /** Fold updates in the record cache (`statestore.cache.max.bytes`); default true. */
  caching?: boolean;
  /** Topic configs of the store's changelog, over Kafka Streams' defaults for it (`StoreBuilder.withLoggingEnabled`). */
  changelogConfigs?: Record<string, string>;
  /** False: the store keeps no changelog (`StoreBuilder.withLoggingDisabled`); see MaterializedStoreOptions.logging. */
  logging?: boolean;
  /** The user's store the data lives in (see StoreSpec.bytesStoreSupplier). */
  bytesStoreSupplier?: BytesStoreSupplier;
  /**
   * As Kafka Streams' in-memory stores: nothing of the store outlives its task's assignment locally; each time the
   * task is opened, its local state is dropped and its stores are restored from their changelogs.
   */
  inMemory?: boolean;
}

/** Kafka Streams' StoreSupplier, as the Stores factory names one: the store's name, kind and extent. */
export interface StoreSupplier {
  readonly name: string;
  /** How the store keeps its data: key-value, versioned key-value, window or session. */
  readonly kind: "key_value" | "versioned_key_value" | "window" | "session";
  /** Window stores: the window size. */
  readonly windowSizeMs?: number;
  /** Window and session stores: how long data is kept. */
  readonly retentionMs?: number;
  /** Kafka Streams' in-memory suppliers: the store keeps nothing locally between assignments (see StoreDeclaration.inMemory). */
  readonly inMemory?: boolean;
  /** Window stores: see StoreDeclaration.retainDuplicates. */
  readonly retainDuplicates?: boolean;
  /** Versioned stores: see StoreDeclaration.historyRetentionMs. */
  readonly historyRetentionMs?: number;
}

/** Kafka Streams' StoreBuilder: a supplier with its serdes and the face processors get; `addStateStore` takes it. */
export interface StoreBuilder {
  readonly name: string;
  /** Folds updates in the record cache. Off unless enabled, as in Kafka Streams. */
  withCachingEnabled(): StoreBuilder;
  withCachingDisabled(): StoreBuilder;
  /** Keeps a changelog (the default), created with these configs over Kafka Streams' defaults. */
  withLoggingEnabled(config: Record<string, string>): StoreBuilder;
  /** No changelog: nothing restores the store (see MaterializedStoreOptions.logging). */
  withLoggingDisabled(): StoreBuilder;
  /** The store as the topology declares it. */
  declaration(): StoreDeclaration;
}

export interface StreamsBuilder {
  stream<K = string, V = string>(topics: string | string[], consumed?: Consumed<K, V>): KStream<K, V>;
  /** A table read from a topic, materialized in a key_value store (named after the topic unless given). */
  table<K = string, V = string>(topic: string, consumed?: Consumed<K, V>, materialized?: Materialized<K, V>): KTable<K, V>;
  /**
   * A global table (Kafka Streams' globalTable): every partition of `topic` in a timestamped_key_value store on every
   * instance, named `materialized.storeName` or else after the topic. The topic is the store's changelog: the store
   * keeps no other, and is read again from the topic's start whenever the application starts.
   */
  globalTable<K = string, V = string>(topic: string, consumed?: Consumed<K, V>, materialized?: Materialized<K, V>): GlobalKTable<K, V>;
  /** Declares a store for Processor API processors (`KStream.process(supplier, [name])`): a declaration or a Stores builder. */
  addStateStore(store: StoreDeclaration | StoreBuilder): StreamsBuilder;
  /**
   * A global store kept by a processor (Kafka Streams' addGlobalStore): a key_value or timestamped_key_value store
   * on every instance, which `stateUpdateSupplier`'s processor writes from every record of every partition of
   * `topic`, read with `consumed`'s serdes. Other processors read it by name without being connected to it; queries
   * read it on any instance. The store is in memory and the topic is its changelog: each start runs the topic from
   * its start through the processor again (Kafka Streams 4.x's reprocessing on restore) before any task processes a
   * record. A builder given withLoggingEnabled(config) is refused.
   */
  addGlobalStore<KIn = string, VIn = string>(store: StoreDeclaration | StoreBuilder, topic: string, consumed: Consumed<KIn, VIn>, stateUpdateSupplier: ProcessorSupplier<KIn, VIn, void, void>): StreamsBuilder;
}
