/**
 * A record piped into or read from the test driver (Kafka Streams' TestRecord): key, value, headers and timestamp.
 * A record without a timestamp takes its input topic's clock when piped.
 */
import type { Header, Headers } from "../../../kernel/contracts/streams/processor";
import { RecordHeaders } from "../processor/record-headers";

/** What the driver's `pipeInput(topic, records)` takes: a TestRecord, or a plain object of the same fields. */
export interface PipedRecord<K, V> {
  key: K;
  value: V;
  timestamp?: number;
  headers?: Headers | Iterable<Header> | null;
  /** Where the record goes; default: its key's partition (murmur2, as Kafka's producer), or 0 for a null key. */
  partition?: number;
}

export class TestRecord<K, V> implements PipedRecord<K, V> {
  readonly key: K;
  readonly value: V;
  readonly headers: Headers;
  readonly timestamp: number | undefined;

  /** `new TestRecord(value)`: a record with a null key, as in Kafka Streams. */
  constructor(value: V);
  constructor(key: K, value: V, headers?: Headers | Iterable<Header> | null, timestamp?: number);
  constructor(...args: [V] | [K, V, (Headers | Iterable<Header> | null)?, number?]) {
    if (args.length === 1) {
      this.key = null as K;
      this.value = args[0];
      this.headers = new RecordHeaders();
      this.timestamp = undefined;
    } else {
      const [key, value, headers, timestamp] = args;
      if (timestamp !== undefined && !(timestamp >= 0)) throw new RangeError(`a test record's timestamp may not be negative, got ${timestamp}`);
      this.key = key;
      this.value = value;
      this.headers = new RecordHeaders(headers);
      this.timestamp = timestamp;
    }
  }
}
