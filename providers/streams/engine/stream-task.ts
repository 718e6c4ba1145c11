/**
 * One task: the processors of one sub-topology for one partition. Records go through the nodes
 * synchronously, depth first, as in Kafka Streams; sink outputs and event-stream records are collected for
 * the runner, which flushes them once per polled batch. Stream time is the largest record timestamp seen.
 */
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
import type { InternalProcessorContext } from "../topology/internal-context";
import { type OriginStamp, OriginStamps } from "./origin-stamps";
import { stringSerde } from "../serdes/builtin-serdes";
import { rangeDeserializer, type RangeDeserializer } from "../serdes/range-deserializer";
import { type CompiledTopology, taskIdOf } from "./compiled-topology";

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
  /** For the last changelog record of a commit: the task's input positions it commits (see kafka/changelog/commit-marker). */
  positions?: string;
  /** The record's headers, in order (those a processor gave it, or its input record's). */
  headerList?: readonly Header[];
  /** Headers of the runtime's own, written after `headerList` (dead letters). */
  headers?: Record<string, string>;
}

export interface TaskStores {
  store(name: string): unknown;
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

export class StreamTask {
  readonly id: string;
  readonly counters: TaskCounters = { processed: 0, dropped: 0 };
  private streamTime = -1;
  private recordTimestamp = -1;
  private readonly nodes = new Map<string, NodeRuntime>();
  private readonly sourcesByTopic = new Map<string, NodeRuntime>();
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

  /** Processes one consumed record of `topic`; errors go through the environment's policy. */
  process(topic: string, record: RawRecord | RangedRecord): void {
    const source = this.sourcesByTopic.get(topic);
    if (!source) throw new Error(`task ${this.id} has no source for topic '${topic}'`);
    this.inputTopic = topic;
    this.inputOffset = record.offset;
    this.repartitionRank = 0;
    try {
      const read = (source as SourceRuntime).read(topic, this.partition, record);
      if (read === undefined) this.counters.dropped++;
      else {
        this.recordTimestamp = read.timestamp;
        if (read.timestamp > this.streamTime) this.streamTime = read.timestamp;
        source.receive(read);
        this.counters.processed++;
      }
    } catch (error) {
      // A timestamp extractor's refusal is fatal, as in Kafka Streams: no error policy skips it.
      if (error instanceof TimestampExtractionError) throw error;
      this.counters.dropped++;
      this.env.onError(error, error instanceof DeserializationError ? "deserialization" : "processing", this.id, { topic, partition: this.partition, record });
    }
    this.current = undefined;
    if (this.punctuators.stream_time.length > 0) this.punctuate("stream_time", this.streamTime);
    this.inputTopic = null;
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
    if (def.kind === "sink") {
      const serdes = this.topology.serdesOf(name);
      // The builtin string serde's bytes are the string's UTF-8: the partitioner hashes them and the encoder writes
      // them into the batch itself, which spares a Buffer per key and value.
      const keyAsText = serdes.key === stringSerde;
      const valueAsText = serdes.value === stringSerde;
      const origins = this.topology.definition.repartitionTopics.has(def.topic) ? new OriginStamps(this.partition) : undefined;
      return {
        name,
        receive: (record) =>
          this.env.emit({
            topic: def.topic,
            key: record.key === null || record.key === undefined ? null : keyAsText ? String(record.key) : serdes.key.serialize(record.key),
            value: record.value === null || record.value === undefined ? null : valueAsText ? String(record.value) : serdes.value.serialize(record.value),
            timestamp: record.timestamp,
            headerList: record.headerList(),
            stamp: origins === undefined ? undefined : this.originOfOutput(origins),
          }),
      };
    }
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

  /** Outputs of punctuations have no input record, hence no origin. */
  private originOfOutput(origins: OriginStamps): OriginStamp | undefined {
    const topic = this.inputTopic;
    return topic === null ? undefined : origins.stamp(topic, this.inputOffset, this.repartitionRank++);
  }

  /** Whether records forwarded from the node can reach a sink to a repartition topic. */
  private reachesRepartitionTopic(name: string): boolean {
    const def = this.topology.node(name);
    if (def.kind === "sink") return this.topology.definition.repartitionTopics.has(def.topic);
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
      recordMetadata: () => (this.inputTopic === null ? NO_METADATA : { topic: this.inputTopic, partition: this.partition, offset: this.inputOffset }),
      currentStreamTimeMs: () => this.streamTime,
      currentSystemTimeMs: () => this.env.now(),
      forward: (forwarded, childName) => {
        const record = asRecord(forwarded);
        for (const child of children) if (childName === undefined || child.name === childName) child.receive(record);
      },
      getStateStore: <S>(storeName: string): S => {
        if (!allowedStores.has(storeName)) throw new Error(`processor '${node.name}' is not connected to store '${storeName}'`);
        return this.stores.store(storeName) as S;
      },
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
      appConfigsWithPrefix: (prefix) => Object.fromEntries(Object.entries(this.env.appConfigs).filter(([key]) => key.startsWith(prefix)).map(([key, value]) => [key.slice(prefix.length), value])),
      stateDir: () => this.env.stateDir(this.id),
      keySerde: () => this.topology.defaultSerdes.key,
      valueSerde: () => this.topology.defaultSerdes.value,
      metrics: () => (this.taskMetrics ??= this.env.metrics(this.id)),
      recordDropped: () => void this.counters.dropped++,
      forwardsMayWait: () => !this.reachesRepartitionTopic(node.name),
    };
  }
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
      throw new DeserializationError(`cannot deserialize record at offset ${raw.offset}: ${(error as Error).message}`);
    }
    const timestamp = this.timestampOf(topic, partition, raw, key, value);
    if (timestamp < 0) return undefined;
    return ranged ? new StreamsRecord(key, value, timestamp, undefined, raw.headerCount > 0 ? raw : undefined) : new StreamsRecord(key, value, timestamp, raw.headers);
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
