/**
 * Kafka Streams' Record: what processors receive and forward. A record read from a topic keeps its headers encoded
 * in the fetched bytes until a processor asks for them (most never do), and records made from it share them;
 * a sink writes them out from there.
 */
import type { Header, Headers, Record, StreamRecord } from "../../../kernel/contracts/streams/processor";
import { HIDDEN_HEADER_NAME } from "./hidden-headers";
import { RecordHeaders } from "./record-headers";

/** Headers still encoded in a consumed record (the Kafka client's ConsumedRecord): decoded when asked for. */
export interface EncodedHeaders {
  /** Every header in order, except those named `hidden` (its UTF-8). */
  headerEntries(hidden?: Uint8Array): Header[];
}

export class StreamsRecord<K, V> implements Record<K, V> {
  /** The headers once given or asked for. */
  private own: RecordHeaders | undefined;
  /** Until then, where they are encoded (none: the record has no headers). */
  private encoded: EncodedHeaders | undefined;

  /** `encoded`: internal, the headers of a consumed record, when `headers` is not given. */
  constructor(
    readonly key: K,
    readonly value: V,
    readonly timestamp: number,
    headers?: Headers | Iterable<Header> | null,
    encoded?: EncodedHeaders,
  ) {
    if (!(timestamp >= 0)) throw new RangeError(`a record's timestamp may not be negative, got ${timestamp}`);
    this.own = headers === undefined || headers === null ? undefined : new RecordHeaders(headers);
    this.encoded = this.own === undefined ? encoded : undefined;
  }

  get headers(): Headers {
    let own = this.own;
    if (own === undefined) {
      own = new RecordHeaders(this.encoded?.headerEntries(HIDDEN_HEADER_NAME));
      this.own = own;
      this.encoded = undefined;
    }
    return own;
  }

  withKey<NK>(key: NK): Record<NK, V> {
    return new StreamsRecord(key, this.value, this.timestamp, this.own, this.encoded);
  }

  withValue<NV>(value: NV): Record<K, NV> {
    return new StreamsRecord(this.key, value, this.timestamp, this.own, this.encoded);
  }

  withTimestamp(timestamp: number): Record<K, V> {
    return new StreamsRecord(this.key, this.value, timestamp, this.own, this.encoded);
  }

  withHeaders(headers: Headers | Iterable<Header>): Record<K, V> {
    return new StreamsRecord(this.key, this.value, this.timestamp, headers);
  }

  /** Key and value changed at once, headers and timestamp kept (what a map forwards). */
  withKeyValue<NK, NV>(key: NK, value: NV): StreamsRecord<NK, NV> {
    return new StreamsRecord(key, value, this.timestamp, this.own, this.encoded);
  }

  /** The headers to write out, without decoding them into the record; undefined when there are none. */
  headerList(): readonly Header[] | undefined {
    const list = this.own !== undefined ? this.own.entries() : this.encoded?.headerEntries(HIDDEN_HEADER_NAME);
    return list === undefined || list.length === 0 ? undefined : list;
  }

  toJSON(): { key: K; value: V; timestamp: number; headers: ReturnType<RecordHeaders["toJSON"]> } {
    return { key: this.key, value: this.value, timestamp: this.timestamp, headers: (this.headers as RecordHeaders).toJSON() };
  }
}

/** What a processor forwarded, as a Record: a plain `{ key, value, timestamp }` becomes one without headers. */
export function asRecord<K, V>(forwarded: Record<K, V> | StreamRecord<K, V>): StreamsRecord<K, V> {
  if (forwarded instanceof StreamsRecord) return forwarded;
  const headers = (forwarded as Partial<Record<K, V>>).headers;
  return new StreamsRecord(forwarded.key, forwarded.value, forwarded.timestamp, headers);
}
