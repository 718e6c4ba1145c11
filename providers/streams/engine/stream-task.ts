/**
 * One task: the processors of one sub-topology for one partition. Records go through the nodes
 * synchronously, depth first, as in Kafka Streams; sink outputs and event-stream records are collected for
 * the runner, which flushes them once per polled batch. Stream time is the largest record timestamp seen.
 */
import type { ReadOnlyStore, StoreSpec } from "../../../kernel/contracts/streams/stores";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type {
  Cancellable,
  ConsumerRecord,
  Header,
  Headers,
  Processor,
  ProcessorContext,
  PunctuationType,
  RecordMetadata,
  StreamsMetrics,
  TimestampExtractor,
} from "../../../kernel/contracts/streams/processor";
import { HIDDEN_HEADER_NAME } from "../processor/hidden-headers";
import { RecordHeaders } from "../processor/record-headers";
import { FailOnInvalidTimestamp, TimestampExtractionError } from "../processor/timestamp-extractors";
import type { ConfigValue } from "../../../kernel/config/config-schema";
import { asRecord, StreamsRecord, type EncodedHeaders } from "../processor/record";
import type { RecordContext, StreamPartitioner, TopicNameExtractor, Windowed } from "../../../kernel/contracts/streams/dsl";
import { isWindowedSerde } from "../serdes/windowed-serde";
import type { InternalProcessorContext } from "../topology/internal-context";
import type { SinkNode } from "../topology/topology-model";
import { type OriginStamp, OriginStamps } from "./origin-stamps";
import { stringSerde } from "../serdes/builtin-serdes";
import { rangeDeserializer, type RangeDeserializer } from "../serdes/range-deserializer";
import { type CompiledTopology, taskIdOf } from "./compiled-topology";
import { PartitionGroup } from "./partition-group";
import { bothReady } from "./read-preparation";
import type { GlobalStores } from "../state/global-store";

export interface RawRecord {
  key: Buffer | null;
  value: Buffer | null;
  timestamp: number;
  offset: number;
  headers?: readonly Header[];
}

/**
 * A raw record whose key and value are ranges of one buffer (a consumed record): decoded without a view each. Its
 * headers stay encoded there until a processor asks for them.
 */
export interface RangedRecord extends EncodedHeaders {
  readonly offset: number;
  readonly timestamp: number;
  readonly key: Buffer | null;
  readonly value: Buffer | null;
  readonly headerCount: number;
  readonly bytes: Buffer;
  readonly keyStart: number;
  /** -1: a null key. */
  readonly keySize: number;
  readonly valueStart: number;
  /** -1: a null value. */
  readonly valueSize: number;
}

export interface OutputRecord {
  topic: string;
  /** Set for changelogs; sinks leave it to the producer's partitioner. */
  partition?: number;
  /** A string key or value: the builtin string serde's output, its UTF-8, left to the encoder to write (see the sink). */
  key: Buffer | string | null;
  value: Buffer | string | null;
  timestamp: number;
  /** For repartition topics: which input record this output comes from, its header (see engine/origin-stamps). */
  stamp?: OriginStamp;
  /** What the default partitioner hashes instead of the key: a windowed key's inner key (WindowedStreamPartitioner). */
  partitionKey?: Buffer;
  /**
   * Set by a sink with a StreamPartitioner: the partitions the record goes to, given the topic's partition count (a
   * copy to each); undefined for the default partitioner's.
   */
  partitioner?: (partitionCount: number) => readonly number[] | undefined;
  /** For the last changelog record of a commit: the task's input positions it commits (see kafka/changelog/commit-marker). */
  positions?: string;
  /** The record's headers, in order (those a processor gave it, or its input record's). */
  headerList?: readonly Header[];
  /** Headers of the runtime's own, written after `headerList` (dead letters). */
  headers?: Record<string, string>;
}

export interface TaskStores {
  store(name: string): unknown;
  /** The store's committed contents, for processors that load what they keep in memory (see `prepare`). */
  readOnly(name: string): ReadOnlyStore;
  /** The store as declared, its serdes resolved. */
  spec(name: string): StoreSpec;
}

/** A processor of the DSL's that keeps part of its store in memory: it loads it once the task's stores are restored. */
interface PreparedProcessor {
  prepare(): Promise<void>;
}

export type ErrorPhase = "deserialization" | "processing" | "punctuation";

/** The consumed record a deserialization or processing error came from. */
export interface FailedRecord {
  topic: string;
  partition: number;
  record: RawRecord | RangedRecord;
}

export interface TaskEnvironment {
  applicationId: string;
  /** The application's configuration, defaults included (ProcessorContext.appConfigs). */
  appConfigs: Readonly<Record<string, ConfigValue>>;
  /** Where a task keeps its local state (ProcessorContext.stateDir). */
  stateDir(taskId: string): string;
  /** The metrics a task's processors add sensors to. */
  metrics(taskId: string): StreamsMetrics;
  /** Receives sink outputs. */
  emit(record: OutputRecord): void;
  sendEvent(type: string, key: unknown, value: unknown, timestamp: number): void;
  /** Decides the error policy: returns to skip the record, throws to fail the task. `failed`: the record, if any. */
  onError(error: unknown, phase: ErrorPhase, taskId: string, failed?: FailedRecord): void;
  now(): number;
  /**
   * Least wall-clock time between two emits of an emit-on-close window aggregation (Kafka Streams' internal
   * emit interval): 1 s by default; Kafka Streams' test driver, like Sluice's, emits at every record.
   */
  windowEmitIntervalMs?: number;
  /** `max.task.idle.ms` of tasks with several input partitions (see partition-group); default 0. */
  maxTaskIdleMs?: number;
  /** The instance's global stores, which every processor may read without being connected to them, as in Kafka Streams. */
  globalStores?: GlobalStores;
}

export interface TaskCounters {
  processed: number;
  dropped: number;
}

interface Punctuator {
  intervalMs: number;
  /** When it fires next: stream-time schedules are aligned to 0, wall-clock ones to when they were made. */
  next: number;
  callback: (timestamp: number) => void;
  node: NodeRuntime;
  cancelled: boolean;
}

interface NodeRuntime {
  name: string;
  receive(record: StreamsRecord<unknown, unknown>): void;
  processor?: Processor<any, any, any, any>;
}

/** What Kafka Streams' recordMetadata() says inside a punctuation: no topic, partition and offset -1. */
const NO_METADATA: RecordMetadata = { topic: null, partition: -1, offset: -1 };

const DEFAULT_WINDOW_EMIT_INTERVAL_MS = 1000;

export class StreamTask {
  readonly id: string;
  readonly counters: TaskCounters = { processed: 0, dropped: 0 };
  private streamTime = -1;
  private recordTimestamp = -1;
  private readonly nodes = new Map<string, NodeRuntime>();
  private readonly sourcesByTopic = new Map<string, SourceRuntime>();
  private readonly punctuators: { stream_time: Punctuator[]; wall_clock_time: Punctuator[] } = { stream_time: [], wall_clock_time: [] };
  /** The input record in process (null topic: none, as in a wall-clock punctuation); metadata is built only when asked. */
  private inputTopic: string | null = null;
  private inputOffset = -1;
  /** Outputs to repartition topics of the record in process so far. */
  private repartitionRank = 0;
  /** Whether a processor asked for a commit since the last one (ProcessorContext.commit). */
  private commitRequested = false;
  private taskMetrics: StreamsMetrics | undefined;
  /** The record the processor in process received (Kafka Streams' record context): its stores' cached updates keep its headers. */
  private current: StreamsRecord<unknown, unknown> | undefined;
  /**
   * A task with several input partitions queues their records here and processes them in time order (see
   * partition-group); a task with one processes each record as it comes.
   */
  readonly group: PartitionGroup | undefined;

  constructor(
    private readonly topology: CompiledTopology,
    readonly subTopologyId: number,
    readonly partition: number,
    private readonly stores: TaskStores,
    private readonly env: TaskEnvironment,
  ) {
    this.id = taskIdOf(subTopologyId, partition);
    const sub = topology.subTopologies[subTopologyId];
    // Children are built before parents so that each node can hold its children directly.
    for (const name of [...sub.nodes].reverse()) this.nodes.set(name, this.buildNode(name));
    for (const name of sub.nodes) this.nodes.get(name)!.processor?.init?.(this.contextFor(this.nodes.get(name)!) as ProcessorContext<any, any>);
    this.group = sub.sourceTopics.length > 1 ? new PartitionGroup(sub.sourceTopics, env.maxTaskIdleMs ?? 0, (topic, record) => this.stamp(topic, record)) : undefined;
  }

  get currentStreamTime(): number {
    return this.streamTime;
  }

  /** Whether a processor asked for a commit since the last call; asking again starts afresh. */
  takeCommitRequest(): boolean {
    const requested = this.commitRequested;
    this.commitRequested = false;
    return requested;
  }

  /**
   * The timestamp of the record in process, or of the punctuation running (Kafka Streams' record context): what a
   * write to a store that keeps no timestamps is stamped with, in its changelog and in its record cache.
   */
  get currentRecordTimestamp(): number {
    return this.recordTimestamp;
  }

  /** The headers of the record the processor in process received; none in a punctuation. */
  currentHeaders(): readonly Header[] | undefined {
    return this.current?.headerList();
  }

  /**
   * Lets the processors that keep part of their stores in memory load it (a suppression buffer's order, the windows an
   * emit-on-close aggregation has yet to emit): once the stores are restored and committed, before the first record.
   */
  async prepare(): Promise<void> {
    for (const node of this.nodes.values()) {
      const processor = node.processor as Partial<PreparedProcessor> | undefined;
      if (typeof processor?.prepare === "function") await processor.prepare();
    }
    // What the serdes of the sinks and stores need from outside the process to write (a registry's writer schema,
    // of a store's changelog subject), before any record.
    for (const name of this.topology.subTopologies[this.subTopologyId].nodes) {
      const def = this.topology.node(name);
      if (def.kind === "sink" && typeof def.topic === "string") await prepareSerdes(this.topology.serdesOf(name), def.topic);
    }
    for (const spec of this.topology.storeSpecsOf(this.subTopologyId)) await prepareSerdes({ key: spec.keySerde, value: spec.valueSerde }, this.topology.changelogTopic(spec.name));
  }

  /**
   * What must be awaited before the records of `topic` are read, for a source whose serdes fetch what they need to
   * read a record (a registry's schema): undefined for the others, which is every source of the builtin serdes.
   */
  readerPreparation(topic: string): ((record: RangedRecord) => Promise<void> | undefined) | undefined {
    const { key, value } = this.topology.serdesOf(this.sourceOf(topic).name);
    const prepareKey = key.prepareDeserialize?.bind(key);
    const prepareValue = value.prepareDeserialize?.bind(value);
    if (prepareKey === undefined && prepareValue === undefined) return undefined;
    return ({ bytes, keyStart, keySize, valueStart, valueSize }) =>
      bothReady(keySize < 0 ? undefined : prepareKey?.(bytes, keyStart, keyStart + keySize), valueSize < 0 ? undefined : prepareValue?.(bytes, valueStart, valueStart + valueSize));
  }

  /** Processes one consumed record of `topic`; errors go through the environment's policy. */
  process(topic: string, record: RawRecord | RangedRecord): void {
    const read = this.stamp(topic, record);
    if (read !== undefined) this.processStamped(topic, record, read);
  }

  /**
   * Reads a consumed record of `topic` as its source does: deserialized and timestamped by its extractor (Kafka
   * Streams' StampedRecord). Undefined when it is dropped: a negative timestamp (counted), or an error the policy
   * skips. A timestamp extractor's refusal is thrown: it is fatal, as in Kafka Streams.
   */
  stamp(topic: string, record: RawRecord | RangedRecord): StreamsRecord<unknown, unknown> | undefined {
    const source = this.sourceOf(topic);
    try {
      const read = source.read(topic, this.partition, record);
      if (read === undefined) this.counters.dropped++;
      return read;
    } catch (error) {
      if (error instanceof TimestampExtractionError) throw error;
      this.counters.dropped++;
      this.env.onError(error, error instanceof DeserializationError ? "deserialization" : "processing", this.id, { topic, partition: this.partition, record });
      return undefined;
    }
  }

  /** Processes a record `stamp` read; errors go through the environment's policy. */
  processStamped(topic: string, record: RawRecord | RangedRecord, read: StreamsRecord<unknown, unknown>): void {
    const source = this.sourceOf(topic);
    this.inputTopic = topic;
    this.inputOffset = record.offset;
    this.repartitionRank = 0;
    try {
      this.recordTimestamp = read.timestamp;
      if (read.timestamp > this.streamTime) this.streamTime = read.timestamp;
      source.receive(read);
      this.counters.processed++;
    } catch (error) {
      this.counters.dropped++;
      this.env.onError(error, "processing", this.id, { topic, partition: this.partition, record });
    }
    this.current = undefined;
    if (this.punctuators.stream_time.length > 0) this.punctuate("stream_time", this.streamTime);
    this.inputTopic = null;
  }

  /**
   * The time of an input partition of the task (the largest timestamp processed from it): what the task commits
   * with the partition's offset. A task with one input partition has the stream time as its partition time.
   */
  partitionTime(topic: string): number {
    return this.group === undefined ? this.streamTime : this.group.partitionTime(topic);
  }

  /** Restores an input partition's time (committed with its offset, or with the task's state): the stream time follows. */
  restorePartitionTime(topic: string, time: number): void {
    this.group?.setPartitionTime(topic, time);
    this.sourceOf(topic).restorePartitionTime(topic, time);
    if (time > this.streamTime) this.streamTime = time;
  }

  private sourceOf(topic: string): SourceRuntime {
    const source = this.sourcesByTopic.get(topic);
    if (source === undefined) throw new Error(`task ${this.id} has no source for topic '${topic}'`);
    return source;
  }

  /** Runs the wall-clock punctuators that are due. */
  punctuateWallClock(now: number): void {
    this.punctuate("wall_clock_time", now);
  }

  close(): void {
    for (const node of this.nodes.values()) node.processor?.close?.();
  }

  /**
   * Fires each due punctuator once, as Kafka Streams does: then it is due again at the first slot of its schedule
   * after `time`, the slots it missed skipped (its schedule never drifts towards the times it happened to run).
   */
  private punctuate(type: PunctuationType, time: number): void {
    if (time < 0) return;
    for (const punctuator of this.punctuators[type]) {
      if (punctuator.cancelled || time < punctuator.next) continue;
      const { intervalMs } = punctuator;
      punctuator.next += (Math.floor((time - punctuator.next) / intervalMs) + 1) * intervalMs;
      this.recordTimestamp = time;
      try {
        punctuator.callback(time);
      } catch (error) {
        this.env.onError(error, "punctuation", this.id);
      }
    }
  }

  private buildNode(name: string): NodeRuntime {
    const def = this.topology.node(name);
    if (def.kind === "source") {
      const runtime = new SourceRuntime(name, this.topology.serdesOf(name), this.topology.timestampExtractorOf(name), () => this.childrenOf(def.successors));
      for (const topic of def.topics) this.sourcesByTopic.set(topic, runtime);
      return runtime;
    }
    if (def.kind === "sink") return this.buildSink(def);
    const processor = def.supplier();
    return {
      name,
      processor,
      receive: (record) => {
        const caller = this.current;
        this.current = record;
        processor.process(record);
        this.current = caller;
      },
    };
  }

  private buildSink(def: SinkNode): NodeRuntime {
    const { name, partitioner } = def;
    const serdes = this.topology.serdesOf(name);
    // The builtin string serde's bytes are the string's UTF-8: the partitioner hashes them and the encoder writes
    // them into the batch itself, which spares a Buffer per key and value.
    const keyAsText = serdes.key === stringSerde;
    const valueAsText = serdes.value === stringSerde;
    const fixedTopic = typeof def.topic === "string" ? def.topic : undefined;
    const extractor = typeof def.topic === "string" ? undefined : def.topic;
    const origins = fixedTopic !== undefined && this.topology.definition.repartitionTopics.has(fixedTopic) ? new OriginStamps(this.partition) : undefined;
    const windowedKeys = isWindowedSerde(serdes.key) ? serdes.key.inner : undefined;
    return {
      name,
      receive: (record) => {
        const topic = fixedTopic ?? this.extractTopic(name, extractor!, record);
        const output: OutputRecord = {
          topic,
          key: record.key === null || record.key === undefined ? null : keyAsText ? String(record.key) : serdes.key.serialize(record.key, topic),
          value: record.value === null || record.value === undefined ? null : valueAsText ? String(record.value) : serdes.value.serialize(record.value, topic),
          timestamp: record.timestamp,
          headerList: record.headerList(),
          stamp: origins === undefined ? undefined : this.originOfOutput(origins),
        };
        if (partitioner !== undefined) output.partitioner = (count) => this.partitionsOf(name, partitioner, topic, record, count);
        else if (windowedKeys !== undefined && output.key !== null) output.partitionKey = windowedKeys.serialize((record.key as Windowed<unknown>).key, topic);
        this.env.emit(output);
      },
    };
  }

  /** The topic a TopicNameExtractor names for a record, with the record's context as Kafka Streams gives it. */
  private extractTopic(sink: string, extractor: TopicNameExtractor<unknown, unknown>, record: StreamsRecord<unknown, unknown>): string {
    const { topic, partition, offset } = this.contextMetadata();
    const context: RecordContext = { topic, partition, offset: offset ?? -1, timestamp: record.timestamp, headers: record.headers };
    const chosen = extractor.extract(record.key, record.value, context);
    if (typeof chosen !== "string" || chosen.length === 0) throw new Error(`the TopicNameExtractor of sink '${sink}' named no topic (${JSON.stringify(chosen)})`);
    return chosen;
  }

  /** A StreamPartitioner's choice, checked; an empty choice drops the record, as Kafka Streams does. */
  private partitionsOf(sink: string, partitioner: StreamPartitioner<unknown, unknown>, topic: string, record: StreamsRecord<unknown, unknown>, count: number): number[] | undefined {
    const chosen = partitioner.partitions(topic, record.key, record.value, count, record.headers);
    if (chosen === undefined || chosen === null) return undefined;
    const partitions = [...chosen];
    const wrong = partitions.find((partition) => !(Number.isInteger(partition) && partition >= 0 && partition < count));
    if (wrong !== undefined) throw new Error(`the StreamPartitioner of sink '${sink}' chose partition ${wrong} of '${topic}', which has ${count}`);
    if (partitions.length === 0) this.counters.dropped++;
    return partitions;
  }

  private contextMetadata(): RecordMetadata {
    return this.inputTopic === null ? NO_METADATA : { topic: this.inputTopic, partition: this.partition, offset: this.inputOffset };
  }

  /** Outputs of punctuations have no input record, hence no origin. */
  private originOfOutput(origins: OriginStamps): OriginStamp | undefined {
    const topic = this.inputTopic;
    return topic === null ? undefined : origins.stamp(topic, this.inputOffset, this.repartitionRank++);
  }

  /** Whether records forwarded from the node can reach a sink to a repartition topic. */
  private reachesRepartitionTopic(name: string): boolean {
    const def = this.topology.node(name);
    if (def.kind === "sink") return typeof def.topic === "string" && this.topology.definition.repartitionTopics.has(def.topic);
    return def.successors.some((successor) => this.nodes.has(successor) && this.reachesRepartitionTopic(successor));
  }

  private childrenOf(names: string[]): NodeRuntime[] {
    return names.map((name) => this.nodes.get(name)!);
  }

  private contextFor(node: NodeRuntime): InternalProcessorContext {
    const def = this.topology.node(node.name);
    const children = def.kind === "processor" ? this.childrenOf(def.successors) : [];
    const allowedStores = new Set(def.kind === "processor" ? def.stores : []);
    return {
      applicationId: this.env.applicationId,
      taskId: this.id,
      recordMetadata: () => this.contextMetadata(),
      currentStreamTimeMs: () => this.streamTime,
      currentSystemTimeMs: () => this.env.now(),
      forward: (forwarded, childName) => {
        const record = asRecord(forwarded);
        for (const child of children) if (childName === undefined || child.name === childName) child.receive(record);
      },
      getStateStore: <S>(storeName: string): S => {
        const global = this.env.globalStores?.store(storeName);
        if (global !== undefined) return global as S;
        if (!allowedStores.has(storeName)) throw new Error(`processor '${node.name}' is not connected to store '${storeName}'`);
        return this.stores.store(storeName) as S;
      },
      committedStore: (storeName) => {
        if (!allowedStores.has(storeName)) throw new Error(`processor '${node.name}' is not connected to store '${storeName}'`);
        return this.stores.readOnly(storeName);
      },
      storeSpec: (storeName) => this.stores.spec(storeName),
      windowEmitIntervalMs: () => this.env.windowEmitIntervalMs ?? DEFAULT_WINDOW_EMIT_INTERVAL_MS,
      schedule: (intervalMs, type, callback): Cancellable => {
        if (!(intervalMs > 0)) throw new Error(`punctuation interval must be positive, got ${intervalMs}`);
        // Stream time: as soon as there is data, then at multiples of the interval. Wall-clock time: one interval from now.
        const start = type === "wall_clock_time" ? this.env.now() + intervalMs : 0;
        const punctuator: Punctuator = { intervalMs, next: start, callback, node, cancelled: false };
        this.punctuators[type].push(punctuator);
        return { cancel: () => void (punctuator.cancelled = true) };
      },
      send: (type, key, value, timestamp) => this.env.sendEvent(type, key, value, timestamp ?? this.streamTime),
      commit: () => void (this.commitRequested = true),
      appConfigs: () => this.env.appConfigs,
      appConfigsWithPrefix: (prefix) => configsWithPrefix(this.env.appConfigs, prefix),
      stateDir: () => this.env.stateDir(this.id),
      keySerde: () => this.topology.defaultSerdes.key,
      valueSerde: () => this.topology.defaultSerdes.value,
      metrics: () => (this.taskMetrics ??= this.env.metrics(this.id)),
      recordDropped: () => void this.counters.dropped++,
      forwardsMayWait: () => !this.reachesRepartitionTopic(node.name),
      serdeOf: (spec, role) => this.topology.resolveSerde(spec, role, `a ${role} of processor '${node.name}'`),
    };
  }
}

async function prepareSerdes({ key, value }: { key: Serde<unknown>; value: Serde<unknown> }, topic: string): Promise<void> {
  await key.prepareSerialize?.(topic);
  await value.prepareSerialize?.(topic);
}

/** ProcessorContext.appConfigsWithPrefix: the entries whose key starts with `prefix`, the prefix taken off. */
export function configsWithPrefix(configs: Readonly<Record<string, ConfigValue>>, prefix: string): Readonly<Record<string, ConfigValue>> {
  return Object.fromEntries(Object.entries(configs).filter(([key]) => key.startsWith(prefix)).map(([key, value]) => [key.slice(prefix.length), value]));
}

export class DeserializationError extends Error {
  override readonly name = "DeserializationError";
}

class SourceRuntime implements NodeRuntime {
  private children: NodeRuntime[] | undefined;
  private readonly keyOf: RangeDeserializer;
  private readonly valueOf: RangeDeserializer;
  /** The largest timestamp extracted from each of the source's topics (its partition of the task's): an extractor's partitionTime. */
  private readonly partitionTimes = new Map<string, number>();

  constructor(
    readonly name: string,
    serdes: { key: { deserialize(bytes: Buffer): unknown }; value: { deserialize(bytes: Buffer): unknown } },
    private readonly extractor: TimestampExtractor,
    private readonly resolveChildren: () => NodeRuntime[],
  ) {
    this.keyOf = rangeDeserializer(serdes.key);
    this.valueOf = rangeDeserializer(serdes.value);
  }

  /** The consumed record deserialized and timestamped by the source's extractor; undefined when that drops it. */
  read(topic: string, partition: number, raw: RawRecord | RangedRecord): StreamsRecord<unknown, unknown> | undefined {
    let key: unknown;
    let value: unknown;
    const ranged = "bytes" in raw;
    try {
      if (ranged) {
        const { bytes, keyStart, keySize, valueStart, valueSize } = raw;
        key = keySize < 0 ? null : this.keyOf(bytes, keyStart, keyStart + keySize);
        value = valueSize < 0 ? null : this.valueOf(bytes, valueStart, valueStart + valueSize);
      } else {
        key = raw.key === null ? null : this.keyOf(raw.key, 0, raw.key.length);
        value = raw.value === null ? null : this.valueOf(raw.value, 0, raw.value.length);
      }
    } catch (error) {
      throw new DeserializationError(`cannot deserialize the record of ${topic} partition ${partition} at offset ${raw.offset}: ${(error as Error).message}`);
    }
    const timestamp = this.timestampOf(topic, partition, raw, key, value);
    if (timestamp < 0) return undefined;
    return ranged ? new StreamsRecord(key, value, timestamp, undefined, raw.headerCount > 0 ? raw : undefined) : new StreamsRecord(key, value, timestamp, raw.headers);
  }

  /** Restores the time of `topic`'s partition that the extractor is given. */
  restorePartitionTime(topic: string, time: number): void {
    if (time > (this.partitionTimes.get(topic) ?? -1)) this.partitionTimes.set(topic, time);
  }

  receive(record: StreamsRecord<unknown, unknown>): void {
    this.children ??= this.resolveChildren();
    for (const child of this.children) child.receive(record);
  }

  private timestampOf(topic: string, partition: number, raw: RawRecord | RangedRecord, key: unknown, value: unknown): number {
    // The default extractor, without a record view to make: the record's own timestamp, a negative one fatal.
    if (this.extractor === FailOnInvalidTimestamp && raw.timestamp >= 0) return raw.timestamp;
    const partitionTime = this.partitionTimes.get(topic) ?? -1;
    let timestamp: number;
    try {
      timestamp = this.extractor.extract(new ConsumerRecordView(topic, partition, raw, key, value), partitionTime);
    } catch (error) {
      if (error instanceof TimestampExtractionError) throw error;
      throw new TimestampExtractionError(`the timestamp extractor of source '${this.name}' failed on ${topic}:${partition}@${raw.offset}: ${(error as Error).message}`);
    }
    if (typeof timestamp !== "number" || Number.isNaN(timestamp)) throw new TimestampExtractionError(`the timestamp extractor of source '${this.name}' returned ${String(timestamp)}, not a number`);
    if (timestamp > partitionTime) this.partitionTimes.set(topic, timestamp);
    return timestamp;
  }
}

/** What a timestamp extractor sees of a consumed record; its headers are decoded if it asks. */
class ConsumerRecordView implements ConsumerRecord {
  private decoded: Headers | undefined;

  constructor(
    readonly topic: string,
    readonly partition: number,
    private readonly raw: RawRecord | RangedRecord,
    readonly key: unknown,
    readonly value: unknown,
  ) {}

  get offset(): number {
    return this.raw.offset;
  }

  get timestamp(): number {
    return this.raw.timestamp;
  }

  get headers(): Headers {
    const raw = this.raw;
    return (this.decoded ??= new RecordHeaders("bytes" in raw ? raw.headerEntries(HIDDEN_HEADER_NAME) : raw.headers));
  }
}
