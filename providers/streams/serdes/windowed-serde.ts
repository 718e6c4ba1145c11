/** Serde of windowed keys: the inner key's bytes, then the window start and end as 8-byte big-endian longs. */
import type { Windowed } from "../../../kernel/contracts/streams/dsl";
import type { Serde } from "../../../kernel/contracts/streams/serde";

export function windowedSerde<K>(inner: Serde<K>): Serde<Windowed<K>> {
  return {
    name: `windowed(${inner.name})`,
    serialize: (windowed) => {
      const times = Buffer.allocUnsafe(16);
      times.writeBigInt64BE(BigInt(windowed.windowStart), 0);
      times.writeBigInt64BE(BigInt(windowed.windowEnd), 8);
      return Buffer.concat([inner.serialize(windowed.key), times]);
    },
    deserialize: (bytes) => ({
      key: inner.deserialize(bytes.subarray(0, bytes.length - 16)),
      windowStart: Number(bytes.readBigInt64BE(bytes.length - 16)),
      windowEnd: Number(bytes.readBigInt64BE(bytes.length - 8)),
    }),
  };
}
