/**
 * The Processor API: custom processors with store access, forwarding and punctuation, for what the DSL
 * cannot express. Processors are synchronous; the runtime batches their store writes and outputs.
 */
import type { ConfigValue } from "../../config/config-schema";
import type { Serde } from "./serde";

/** One record header (Kafka's Header): a name, and bytes or null. */
export interface Header {
  readonly key: string;
  readonly value: Buffer | null;
}

/**
 * A record's headers (Kafka's Headers): in order, a name may repeat. Changes apply to this record only; a record
 * made from it by `withKey`, `withValue`, `withTimestamp` takes a copy of them as they are then.
 */
export interface Headers extends Iterable<Header> {
  /** Appends a header; a string value stands for its UTF-8. */
  add(key: string, value: Buffer | string | null): Headers;
  add(header: Header): Headers;
  /** Removes every header of that name. */
  remove(key: string): Headers;
  /** The last header of that name, or null. */
  lastHeader(key: string): Header | null;
  /** Every header of that name, in order. */
  headers(key: string): Iterable<Header>;
  toArray(): Header[];
}

/**
 * The record a processor receives and forwards (Kafka Streams' Record): key, value, timestamp and headers. The
 * `with…` methods return a new record that keeps the other fields, headers included; the DSL's operators forward
 * records made so, which is how headers travel from a source to a sink.
 */
export interface Record<K, V> {
  readonly key: K;
  readonly value: V;
  /** Event time in epoch milliseconds; never negative. */
  readonly timestamp: number;
  readonly headers: Headers;
  withKey<NK>(key: NK): Record<NK, V>;
  withValue<NV>(value: NV): Record<K, NV>;
  withTimestamp(timestamp: number): Record<K, V>;
  withHeaders(headers: Headers | Iterable<Header>): Record<K, V>;
}

/** `new Record(key, value, timestamp, headers?)`: the headers are copied; a negative timestamp is an error. */
export interface RecordConstructor {
  new <K, V>(key: K, value: V, timestamp: number, headers?: Headers | Iterable<Header> | null): Record<K, V>;
}

/**
 * What a processor may forward besides a Record: a plain key, value and timestamp, without headers (the shape
 * processors forwarded before records had headers).
 */
export interface StreamRecord<K, V> {
  key: K;
  value: V;
  /** Event time in epoch milliseconds. */
  timestamp: number;
}

/** A record as a source read it, its key and value deserialized: what a timestamp extractor sees (Kafka's ConsumerRecord). */
export interface ConsumerRecord<K = unknown, V = unknown> {
  readonly topic: string;
  readonly partition: number;
  readonly offset: number;
  readonly key: K;
  readonly value: V;
  /** The timestamp the record carries (its CreateTime or LogAppendTime); -1 when it has none. */
  readonly timestamp: number;
  readonly headers: Headers;
}

/**
 * Kafka Streams' TimestampExtractor: a record's event time. `partitionTime` is the largest timestamp extracted from
 * the record's partition so far (-1 before the first). A negative result drops the record (counted in
 * dropped-records); a throw fails the application, whatever `processing.error.policy` says.
 */
export interface TimestampExtractor {
  extract(record: ConsumerRecord, partitionTime: number): number;
}

/**
 * The built-in extractors by Kafka Streams' names: the record's own timestamp, and when it is negative, fail
 * (`FailOnInvalidTimestamp`, the default), drop the record (`LogAndSkipOnInvalidTimestamp`) or take the partition
 * time (`UsePartitionTimeOnInvalidTimestamp`, which fails when there is none yet; `UsePreviousTimeOnInvalidTimestamp`
 * is its former name); or the wall-clock time (`WallclockTimestampExtractor`).
 */
export type TimestampExtractorName =
  | "FailOnInvalidTimestamp"
  | "LogAndSkipOnInvalidTimestamp"
  | "UsePartitionTimeOnInvalidTimestamp"
  | "UsePreviousTimeOnInvalidTimestamp"
  | "WallclockTimestampExtractor";

/** Stream time advances with the record timestamps of a task; wall-clock time with the system clock. */
export type PunctuationType = "stream_time" | "wall_clock_time";

export interface Cancellable {
  cancel(): void;
}

/** Where the record being processed came from; inside a punctuation, as in Kafka Streams: a null topic, partition and offset -1. */
export interface RecordMetadata {
  topic: string | null;
  partition: number;
  offset: number;
}

export interface ProcessorContext<KOut = unknown, VOut = unknown> {
  readonly applicationId: string;
  /** `<sub-topology>_<partition>`, as in Kafka Streams. */
  readonly taskId: string;
  recordMetadata(): RecordMetadata;
  currentStreamTimeMs(): number;
  currentSystemTimeMs(): number;
  /** Sends a record to every child, or to the named child only. A plain `{ key, value, timestamp }` carries no headers. */
  forward(record: Record<KOut, VOut> | StreamRecord<KOut, VOut>, childName?: string): void;
  /** A store connected to this processor; the type parameter is the store interface (see stores.ts). */
  getStateStore<S>(name: string): S;
  /**
   * Calls `callback` with the stream time or the wall-clock time, as Kafka Streams punctuates: by stream time as soon
   * as the task has data, then whenever stream time reaches the next multiple of the interval; by wall-clock time one
   * interval from now, then every interval after that. Slots missed while time jumped are skipped, never made up.
   */
  schedule(intervalMs: number, type: PunctuationType, callback: (timestamp: number) => void): Cancellable;
  /** Sends a record into one of the application's declared event streams. */
  send(eventType: string, key: unknown, value: unknown, timestamp?: number): void;
  /** Asks for a commit soon: at the latest after the batch or punctuation in process (Sluice commits after each anyway). */
  commit(): void;
  /** The application's configuration, every key with its effective value. */
  appConfigs(): Readonly<{ [key: string]: ConfigValue }>;
  /** The entries of appConfigs() whose key starts with `prefix`, the prefix taken off. */
  appConfigsWithPrefix(prefix: string): Readonly<{ [key: string]: ConfigValue }>;
  /** The task's state directory. */
  stateDir(): string;
  /** The default key serde (`default.key.serde`). */
  keySerde(): Serde<unknown>;
  /** The default value serde (`default.value.serde`). */
  valueSerde(): Serde<unknown>;
  /** Where a processor adds metrics of its own: they show in `/metrics` with the runtime's. */
  metrics(): StreamsMetrics;
}

/** `metrics.recording.level`: a sensor records only at or below the configured level. */
export type RecordingLevel = "INFO" | "DEBUG" | "TRACE";

/**
 * What a sensor's metric shows of the values recorded (Kafka's stats): their average, largest, smallest, sum
 * (`total`), how many (`count`), recordings per second over the last 30 s (`rate`), or the last one (`value`).
 */
export type SensorStat = "avg" | "max" | "min" | "total" | "count" | "rate" | "value";

/** A metric's identity: name, group and tags as `/metrics` shows them. */
export interface MetricName {
  name: string;
  group: string;
  description?: string;
  tags?: { [tag: string]: string };
}

/** Kafka's Sensor: values recorded once, shown by each metric added to it (and its parents). */
export interface Sensor {
  readonly name: string;
  /** Records a value (default 1), unless the sensor's level is above the configured one. */
  record(value?: number): void;
  /** Adds a metric of `stat` over the recorded values; false when the metric exists already. */
  add(metric: MetricName, stat: SensorStat): boolean;
  /** Whether recording at this sensor's level is on. */
  shouldRecord(): boolean;
}

/** Kafka Streams' StreamsMetrics, the part a processor uses. */
export interface StreamsMetrics {
  /**
   * A sensor with `<operation>-latency-avg`, `<operation>-latency-max`, `<operation>-rate` and `<operation>-total`
   * in group `stream-<scope>-metrics`, tagged with the thread, the task and `<scope>-id: <entity>`.
   */
  addLatencyRateTotalSensor(scopeName: string, entityName: string, operationName: string, recordingLevel?: RecordingLevel, tags?: { [tag: string]: string }): Sensor;
  /** As addLatencyRateTotalSensor, with `<operation>-rate` and `<operation>-total` only. */
  addRateTotalSensor(scopeName: string, entityName: string, operationName: string, recordingLevel?: RecordingLevel, tags?: { [tag: string]: string }): Sensor;
  /** A sensor without metrics (add them with `Sensor.add`); the same name gives the same sensor. Parents record what it records. */
  addSensor(name: string, recordingLevel?: RecordingLevel, parents?: Sensor[]): Sensor;
  /** Removes the sensor and its metrics. */
  removeSensor(sensor: Sensor): void;
}

export interface Processor<KIn = unknown, VIn = unknown, KOut = unknown, VOut = unknown> {
  init?(context: ProcessorContext<KOut, VOut>): void;
  process(record: Record<KIn, VIn>): void;
  close?(): void;
}

/** Called once per task: each task gets its own processor instance. */
export type ProcessorSupplier<KIn = unknown, VIn = unknown, KOut = unknown, VOut = unknown> = () => Processor<
  KIn,
  VIn,
  KOut,
  VOut
>;

/**
 * The record a fixed-key processor receives and forwards (Kafka Streams' FixedKeyRecord): a Record whose key cannot
 * change, so the stream after `processValues` stays partitioned as it was (no repartition before a grouping or join).
 */
export interface FixedKeyRecord<K, V> {
  readonly key: K;
  readonly value: V;
  readonly timestamp: number;
  readonly headers: Headers;
  withValue<NV>(value: NV): FixedKeyRecord<K, NV>;
  withTimestamp(timestamp: number): FixedKeyRecord<K, V>;
  withHeaders(headers: Headers | Iterable<Header>): FixedKeyRecord<K, V>;
}

/** A fixed-key processor's context (Kafka Streams' FixedKeyProcessorContext): it forwards only records it received, changed. */
export interface FixedKeyProcessorContext<KForward = unknown, VForward = unknown> extends Omit<ProcessorContext<KForward, VForward>, "forward"> {
  forward(record: FixedKeyRecord<KForward, VForward>, childName?: string): void;
}

/** Kafka Streams' FixedKeyProcessor, for `KStream.processValues`. */
export interface FixedKeyProcessor<KIn = unknown, VIn = unknown, VOut = unknown> {
  init?(context: FixedKeyProcessorContext<KIn, VOut>): void;
  process(record: FixedKeyRecord<KIn, VIn>): void;
  close?(): void;
}

/** Called once per task: each task gets its own processor instance. */
export type FixedKeyProcessorSupplier<KIn = unknown, VIn = unknown, VOut = unknown> = () => FixedKeyProcessor<KIn, VIn, VOut>;
