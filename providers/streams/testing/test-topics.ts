/**
 * Kafka Streams' TestInputTopic and TestOutputTopic: a topic of the test driver with its serdes, to pipe records
 * into and read them from. An input topic has a clock of its own for records piped without a timestamp: it starts
 * at the driver's wall-clock time (Kafka Streams starts it at the real time) and moves by `autoAdvanceMs` per record.
 */
import type { SerdeRef } from "../../../kernel/contracts/streams/dsl";
import type { KeyValue } from "../../../kernel/contracts/streams/stores";
import type { Header, Headers } from "../../../kernel/contracts/streams/processor";
import { TestRecord, type PipedRecord } from "./test-record";

/** What the topics need of the driver. */
export interface TestTopicDriver {
  pipeRecords<K, V>(topic: string, records: PipedRecord<K, V>[], serdes: TopicSerdes<K, V>): Promise<void>;
  /** The next record the topology wrote to the topic, or undefined when none is left. */
  takeRecord<K, V>(topic: string, serdes: TopicSerdes<K, V>): TestRecord<K, V> | undefined;
  queueSize(topic: string): number;
}

/** The serdes a topic was created with (a name of a builtin serde or an object; none: the topology's). */
export interface TopicSerdes<K, V> {
  key?: SerdeRef<K>;
  value?: SerdeRef<V>;
}

export interface InputTopicOptions {
  /** The clock of records piped without a timestamp; default: the driver's wall-clock time. */
  startTimestamp?: number;
  /** How far that clock moves after each such record; default 0. */
  autoAdvanceMs?: number;
}

export class TestInputTopic<K, V> {
  private currentTime: number;
  private readonly autoAdvanceMs: number;

  constructor(
    private readonly driver: TestTopicDriver,
    readonly topic: string,
    private readonly serdes: TopicSerdes<K, V>,
    startTimestamp: number,
    autoAdvanceMs: number,
  ) {
    if (!(autoAdvanceMs >= 0)) throw new RangeError(`autoAdvanceMs must not be negative, got ${autoAdvanceMs}`);
    this.currentTime = startTimestamp;
    this.autoAdvanceMs = autoAdvanceMs;
  }

  /** Moves the topic's clock forward. */
  advanceTime(ms: number): void {
    if (!(ms >= 0)) throw new RangeError(`advance must not be negative, got ${ms}`);
    this.currentTime += ms;
  }

  /**
   * `pipeInput(record)` for a TestRecord, `pipeInput(value)` for a value with a null key, or `pipeInput(key, value,
   * timestamp?, headers?)`.
   */
  pipeInput(record: TestRecord<K, V>): Promise<void>;
  pipeInput(value: V): Promise<void>;
  pipeInput(key: K, value: V, timestamp?: number, headers?: Headers | Iterable<Header>): Promise<void>;
  pipeInput(...args: [TestRecord<K, V> | V] | [K, V, number?, (Headers | Iterable<Header>)?]): Promise<void> {
    if (args.length === 1) {
      const [only] = args;
      return this.pipeRecordList([only instanceof TestRecord ? only : new TestRecord<K, V>(only as V)]);
    }
    const [key, value, timestamp, headers] = args;
    return this.pipeRecordList([{ key, value, timestamp, headers }]);
  }

  pipeRecordList(records: PipedRecord<K, V>[]): Promise<void> {
    const timed = records.map((record): PipedRecord<K, V> => (record.timestamp === undefined ? { key: record.key, value: record.value, headers: record.headers, partition: record.partition, timestamp: this.nextTime() } : record));
    return this.driver.pipeRecords(this.topic, timed, this.serdes);
  }

  /** Records of each key and value, timestamped by the topic's clock, or from `startTimestamp` by `advanceMs` each. */
  pipeKeyValueList(keyValues: KeyValue<K, V>[], startTimestamp?: number, advanceMs = 0): Promise<void> {
    let time = startTimestamp;
    return this.pipeRecordList(
      keyValues.map(({ key, value }) => {
        const timestamp = time;
        if (time !== undefined) time += advanceMs;
        return { key, value, timestamp };
      }),
    );
  }

  /** Records with null keys; timestamps as in pipeKeyValueList. */
  pipeValueList(values: V[], startTimestamp?: number, advanceMs = 0): Promise<void> {
    return this.pipeKeyValueList(values.map((value) => ({ key: null as K, value })), startTimestamp, advanceMs);
  }

  private nextTime(): number {
    const time = this.currentTime;
    this.currentTime += this.autoAdvanceMs;
    return time;
  }
}

export class TestOutputTopic<K, V> {
  constructor(
    private readonly driver: TestTopicDriver,
    readonly topic: string,
    private readonly serdes: TopicSerdes<K, V>,
  ) {}

  /** The next record; an error when the topology has written none that is not read yet. */
  readRecord(): TestRecord<K, V> {
    const record = this.driver.takeRecord(this.topic, this.serdes);
    if (record === undefined) throw new Error(`Empty topic: ${this.topic}`);
    return record;
  }

  readValue(): V {
    return this.readRecord().value;
  }

  readKeyValue(): KeyValue<K, V> {
    const { key, value } = this.readRecord();
    return { key, value };
  }

  readRecordsToList(): TestRecord<K, V>[] {
    const records: TestRecord<K, V>[] = [];
    while (!this.isEmpty()) records.push(this.readRecord());
    return records;
  }

  /** Every record left, the last value of each key; a null key is an error. */
  readKeyValuesToMap(): Map<K, V> {
    const latest = new Map<K, V>();
    for (const { key, value } of this.readRecordsToList()) {
      if (key === null || key === undefined) throw new Error(`Null keys not allowed with readKeyValuesToMap (topic ${this.topic})`);
      latest.set(key, value);
    }
    return latest;
  }

  readKeyValuesToList(): KeyValue<K, V>[] {
    return this.readRecordsToList().map(({ key, value }) => ({ key, value }));
  }

  readValuesToList(): V[] {
    return this.readRecordsToList().map(({ value }) => value);
  }

  getQueueSize(): number {
    return this.driver.queueSize(this.topic);
  }

  isEmpty(): boolean {
    return this.getQueueSize() === 0;
  }
}
