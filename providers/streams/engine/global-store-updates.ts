/**
 * What feeds an instance's global stores (Kafka Streams' GlobalStateUpdateTask and its restore): each record of a
 * global topic becomes a row of a global table's store, or goes, deserialized, to the processor of a store added
 * with `StreamsBuilder.addGlobalStore`, which writes the store as it likes. A run fills its in-memory global stores
 * from each topic's start (the restore) before its tasks start; as Kafka Streams 4.x does for addGlobalStore
 * (reprocess on restore), the restore runs every record through the processor too, except those with a null key,
 * which a restore passes over and a live update hands to the processor.
 */
import type { ConfigValue } from "../../../kernel/config/config-schema";
import type { Cancellable, ProcessorContext, Processor, StreamsMetrics } from "../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import { StreamsRecord, type EncodedHeaders } from "../processor/record";
import type { GlobalKeyValueStore, GlobalStores } from "../state/global-store";
import { bothReady } from "./read-preparation";
import { configsWithPrefix } from "./stream-task";

/** The task id a global store's processor sees, as Kafka Streams' global task has it. */
export const GLOBAL_TASK_ID = "-1_-1";

/** One record of a global topic, as read. */
export interface GlobalTopicRecord {
  topic: string;
  partition: number;
  offset: number;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: number;
  headers?: EncodedHeaders;
}

/** What a global store's processor may ask its context for. */
export interface GlobalProcessingEnvironment {
  applicationId: string;
  appConfigs: Readonly<Record<string, ConfigValue>>;
  stateDir(): string;
  metrics(): StreamsMetrics;
  now(): number;
  defaultSerdes: { key: Serde<unknown>; value: Serde<unknown> };
}

interface RunningProcessor {
  processor: Processor<any, any, void, void>;
  store: GlobalKeyValueStore;
}

export class GlobalStoreUpdates {
  private readonly processors = new Map<string, RunningProcessor>();
  /** The record in process, for the context's recordMetadata and the timestamp of a key_value store's writes. */
  private current: GlobalTopicRecord | undefined;

  /** Makes and initializes each store's processor (Kafka Streams initializes them before the restore). */
  constructor(
    private readonly stores: GlobalStores,
    env: GlobalProcessingEnvironment,
  ) {
    for (const store of stores.all()) {
      const spec = store.spec.processor;
      if (spec === undefined) continue;
      const processor = spec.supplier();
      this.processors.set(store.spec.topic, { processor, store });
      processor.init?.(this.contextOf(store, env));
    }
  }

  /**
   * What must be awaited before `record` is fed (its serdes fetching the schemas its bytes name from a registry), or
   * undefined. A global table's store keeps the bytes and reads them when asked, without a chance to wait: the
   * schemas are fetched here, before the record goes into the store, as a task fetches them before a record.
   */
  prepare(record: GlobalTopicRecord): Promise<void> | undefined {
    const store = this.stores.ofTopic(record.topic)!;
    const { keySerde, valueSerde } = store.spec.processor ?? store.spec;
    const { key, value } = record;
    return bothReady(key === null ? undefined : keySerde.prepareDeserialize?.(key, 0, key.length), value === null ? undefined : valueSerde.prepareDeserialize?.(value, 0, value.length));
  }

  /** Feeds one record of a global topic to its store (after `prepare`); `restoring`: while the run catches its stores up. */
  update(record: GlobalTopicRecord, restoring: boolean): void {
    const running = this.processors.get(record.topic);
    if (running === undefined) return this.stores.ofTopic(record.topic)!.apply(record.key, record.value, record.timestamp);
    if (restoring && record.key === null) return;
    const { keySerde, valueSerde } = running.store.spec.processor!;
    const key = record.key === null ? null : keySerde.deserialize(record.key);
    const value = record.value === null ? null : valueSerde.deserialize(record.value);
    this.current = record;
    try {
      running.processor.process(new StreamsRecord(key, value, Math.max(record.timestamp, 0), undefined, record.headers));
    } finally {
      this.current = undefined;
    }
  }

  close(): void {
    for (const { processor } of this.processors.values()) processor.close?.();
  }

  private contextOf(store: GlobalKeyValueStore, env: GlobalProcessingEnvironment): ProcessorContext<void, void> {
    const own = store.writable(() => Math.max(this.current?.timestamp ?? 0, 0));
    const name = store.spec.processor!.name;
    const refused = (what: string): never => {
      throw new Error(`processor '${name}' of global store '${store.name}' cannot ${what}: a global store's processor only keeps its store`);
    };
    return {
      applicationId: env.applicationId,
      taskId: GLOBAL_TASK_ID,
      recordMetadata: () => (this.current === undefined ? { topic: null, partition: -1, offset: -1 } : { topic: this.current.topic, partition: this.current.partition, offset: this.current.offset }),
      // A global processor has no stream time of its own beyond the record in process.
      currentStreamTimeMs: () => this.current?.timestamp ?? -1,
      currentSystemTimeMs: () => env.now(),
      // Its node has no children in Kafka Streams: what it forwards goes nowhere.
      forward: () => undefined,
      getStateStore: <S>(storeName: string): S => {
        if (storeName === store.name) return own as S;
        const other = this.stores.store(storeName);
        if (other === undefined) throw new Error(`processor '${name}' of global store '${store.name}' asked for store '${storeName}', which is not a global store`);
        return other as S;
      },
      schedule: (): Cancellable => refused("schedule punctuations"),
      send: () => refused("send events"),
      commit: () => undefined,
      appConfigs: () => env.appConfigs,
      appConfigsWithPrefix: (prefix) => configsWithPrefix(env.appConfigs, prefix),
      stateDir: () => env.stateDir(),
      keySerde: () => env.defaultSerdes.key,
      valueSerde: () => env.defaultSerdes.value,
      metrics: () => env.metrics(),
    };
  }
}
