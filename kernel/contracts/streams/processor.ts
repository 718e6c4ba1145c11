/**
 * The Processor API: custom processors with store access, forwarding and punctuation, for what the DSL
 * cannot express. Processors are synchronous; the runtime batches their store writes and outputs.
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
  /** Sends a record to every child, or to the named child only. */
  forward(record: StreamRecord<KOut, VOut>, childName?: string): void;
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
  process(record: StreamRecord<KIn, VIn>): void;
  close?(): void;
}

/** Called once per task: each task gets its own processor instance. */
export type ProcessorSupplier<KIn = unknown, VIn = unknown, KOut = unknown, VOut = unknown> = () => Processor<
  KIn,
  VIn,
  KOut,
  VOut
>;
