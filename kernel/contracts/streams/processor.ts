/**
 * The Processor API: custom processors with store access, forwarding and punctuation, for what the DSL
 * cannot express. Processors are synchronous; the runtime batches their store writes and outputs.
 */

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
