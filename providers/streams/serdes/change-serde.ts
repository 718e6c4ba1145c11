/**
 * The serde of a table change on a repartition topic (Kafka Streams 4.x's ChangedSerializer/ChangedDeserializer),
 * the bytes Kafka Streams writes: only a new value — its bytes, then 1; only an old one — its bytes, then 0; both —
 * the new value's length as a zig-zag varint, the new bytes, the old bytes, then 2. Flags 3 to 5 (the same with an
 * "is latest" byte before the flag, from versioned tables) are read as well. The Change itself lives here, beside its
 * bytes, so that the serdes need nothing from the topology.
 */
import type { Serde } from "../../../kernel/contracts/streams/serde";

/** A change of one row (Kafka Streams' Change): its new value, null when deleted, and its old one when asked for. */
export interface Change<V = unknown> {
  readonly newValue: V | null;
  readonly oldValue: V | null;
}

export function change<V>(newValue: V | null | undefined, oldValue: V | null | undefined): Change<V> {
  return { newValue: newValue ?? null, oldValue: oldValue ?? null };
}

const NEW_ONLY = 1;
const OLD_ONLY = 0;
const BOTH = 2;
/** Flags 3–5 mean 0–2 with an "is latest" byte before the flag. */
const WITH_IS_LATEST = 3;

export function changeSerde<T>(inner: Serde<T>): Serde<Change<T>> {
  return {
    name: `change(${inner.name})`,
    serialize: ({ newValue, oldValue }) => {
      if (newValue === null && oldValue === null) throw new Error("a change with neither a new nor an old value cannot be serialized");
      if (oldValue === null) return Buffer.concat([inner.serialize(newValue as T), Buffer.of(NEW_ONLY)]);
      if (newValue === null) return Buffer.concat([inner.serialize(oldValue), Buffer.of(OLD_ONLY)]);
      const newBytes = inner.serialize(newValue);
      return Buffer.concat([zigZagVarint(newBytes.length), newBytes, inner.serialize(oldValue), Buffer.of(BOTH)]);
    },
    deserialize: (bytes) => {
      const flag = bytes[bytes.length - 1];
      if (!(flag >= 0 && flag <= 5)) throw new Error(`unknown flag ${flag} at the end of a serialized table change`);
      const end = bytes.length - (flag >= WITH_IS_LATEST ? 2 : 1);
      const read = (from: number, to: number) => inner.deserialize(bytes.subarray(from, to));
      switch (flag % WITH_IS_LATEST) {
        case NEW_ONLY:
          return { newValue: read(0, end), oldValue: null };
        case OLD_ONLY:
          return { newValue: null, oldValue: read(0, end) };
        default: {
          const { value: newLength, size } = readZigZagVarint(bytes);
          return { newValue: read(size, size + newLength), oldValue: read(size + newLength, end) };
        }
      }
    },
  };
}

/** Kafka's ByteUtils.writeVarint: a signed int, zig-zag encoded, 7 bits a byte. */
function zigZagVarint(value: number): Buffer {
  let rest = ((value << 1) ^ (value >> 31)) >>> 0;
  const bytes: number[] = [];
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest >>>= 7;
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

function readZigZagVarint(bytes: Buffer): { value: number; size: number } {
  let raw = 0;
  for (let i = 0, shift = 0; i < 5 && i < bytes.length; i++, shift += 7) {
    raw |= (bytes[i] & 0x7f) << shift;
    if ((bytes[i] & 0x80) === 0) return { value: (raw >>> 1) ^ -(raw & 1), size: i + 1 };
  }
  throw new Error("a serialized table change starts with a malformed length");
}
