/**
 * Serdes of windowed keys with Kafka Streams' byte layouts (WindowedSerdes), so that Java consumers read Sluice's
 * windowed outputs and Sluice reads theirs: a time window's key is the inner key's bytes and the window start (an
 * 8-byte big-endian long), its end being start + size; a session's is the inner key's bytes, the session end, then
 * its start.
 */
import type { Windowed } from "../../../kernel/contracts/streams/dsl";
import type { Serde } from "../../../kernel/contracts/streams/serde";

const TIME_BYTES = 8;

function timeBytes(...times: number[]): Buffer {
  const bytes = Buffer.allocUnsafe(TIME_BYTES * times.length);
  times.forEach((time, index) => bytes.writeBigInt64BE(BigInt(time), index * TIME_BYTES));
  return bytes;
}

function readTime(bytes: Buffer, offset: number): number {
  return Number(bytes.readBigInt64BE(offset));
}

function innerBytes(bytes: Buffer, timeCount: number, what: string): Buffer {
  if (bytes.length < TIME_BYTES * timeCount) throw new TypeError(`${what}: expected at least ${TIME_BYTES * timeCount} bytes, got ${bytes.length}`);
  return bytes.subarray(0, bytes.length - TIME_BYTES * timeCount);
}

/**
 * A windowed key's serde, with its inner key's: a sink partitions windowed keys by their inner key's bytes (Kafka
 * Streams' WindowedStreamPartitioner), so that all windows of a key share a partition.
 */
export type WindowedSerde<K> = Serde<Windowed<K>> & { readonly inner: Serde<K> };

export function isWindowedSerde(serde: Serde<unknown>): serde is WindowedSerde<unknown> {
  return typeof (serde as Partial<WindowedSerde<unknown>>).inner?.serialize === "function";
}

/**
 * What a windowed serde passes on to its inner one, as Kafka Streams' windowed serializers pass the topic: where the
 * bytes go (a registry serde's subject comes from it), and what the inner serde must fetch before it writes to a
 * topic or reads the inner key of `bytes[start, end)`, the window's `timeCount` times taken off the end.
 */
function passedOn<K>(inner: Serde<K>, timeCount: number): Pick<Serde<Windowed<K>>, "prepareSerialize" | "prepareDeserialize"> {
  const { prepareSerialize, prepareDeserialize } = inner;
  return {
    ...(prepareSerialize === undefined ? {} : { prepareSerialize: (topic: string) => prepareSerialize.call(inner, topic) }),
    ...(prepareDeserialize === undefined
      ? {}
      : { prepareDeserialize: (bytes: Buffer, start: number, end: number) => (end - start < TIME_BYTES * timeCount ? undefined : prepareDeserialize.call(inner, bytes, start, end - TIME_BYTES * timeCount)) }),
  };
}

/** Kafka Streams' TimeWindowedSerde: the window's size is not in the bytes, so the reader is told it. */
export function timeWindowedSerde<K>(inner: Serde<K>, windowSizeMs: number): WindowedSerde<K> {
  const name = `time-windowed(${inner.name})`;
  return {
    name,
    inner,
    ...passedOn(inner, 1),
    serialize: (windowed, topic) => Buffer.concat([inner.serialize(windowed.key, topic), timeBytes(windowed.windowStart)]),
    deserialize: (bytes) => {
      const key = inner.deserialize(innerBytes(bytes, 1, name));
      const windowStart = readTime(bytes, bytes.length - TIME_BYTES);
      return { key, windowStart, windowEnd: windowStart + windowSizeMs };
    },
  };
}

/** Kafka Streams' SessionWindowedSerde. */
export function sessionWindowedSerde<K>(inner: Serde<K>): WindowedSerde<K> {
  const name = `session-windowed(${inner.name})`;
  return {
    name,
    inner,
    ...passedOn(inner, 2),
    serialize: (windowed, topic) => Buffer.concat([inner.serialize(windowed.key, topic), timeBytes(windowed.windowEnd, windowed.windowStart)]),
    deserialize: (bytes) => {
      const key = inner.deserialize(innerBytes(bytes, 2, name));
      return { key, windowStart: readTime(bytes, bytes.length - TIME_BYTES), windowEnd: readTime(bytes, bytes.length - 2 * TIME_BYTES) };
    },
  };
}
