/** The builtin serdes, byte-compatible with Kafka's String/Long/Integer/Double/ByteArray serdes. */
import type { Serde } from "../../../kernel/contracts/streams/serde";
// The module itself: the package index re-exports through getters, one more call per value.
import { readInt64Number, writeInt64Number } from "../../kafka-protocol/records/int64-numbers";

export const stringSerde: Serde<string> = {
  name: "string",
  serialize: (value) => Buffer.from(String(value), "utf8"),
  deserialize: (bytes) => bytes.toString("utf8"),
};

export const jsonSerde: Serde<unknown> = {
  name: "json",
  serialize: (value) => Buffer.from(JSON.stringify(value), "utf8"),
  deserialize: (bytes) => JSON.parse(bytes.toString("utf8")),
};

export const longSerde: Serde<number> = {
  name: "long",
  serialize: (value) => {
    if (!Number.isSafeInteger(value)) throw new TypeError(`long serde: ${String(value)} is not a safe integer`);
    const bytes = Buffer.allocUnsafe(8);
    writeInt64Number(bytes, 0, value);
    return bytes;
  },
  deserialize: (bytes) => {
    if (bytes.length !== 8) throw new TypeError(`long serde: expected 8 bytes, got ${bytes.length}`);
    const value = readInt64Number(bytes, 0);
    return Number.isSafeInteger(value) ? value : Number(bytes.readBigInt64BE());
  },
};

export const intSerde: Serde<number> = {
  name: "int",
  serialize: (value) => {
    if (!Number.isInteger(value) || value < -0x80000000 || value > 0x7fffffff) {
      throw new TypeError(`int serde: ${String(value)} is not a 32-bit integer`);
    }
    const bytes = Buffer.allocUnsafe(4);
    bytes.writeInt32BE(value);
    return bytes;
  },
  deserialize: (bytes) => {
    if (bytes.length !== 4) throw new TypeError(`int serde: expected 4 bytes, got ${bytes.length}`);
    return bytes.readInt32BE();
  },
};

export const doubleSerde: Serde<number> = {
  name: "double",
  serialize: (value) => {
    if (typeof value !== "number") throw new TypeError(`double serde: ${String(value)} is not a number`);
    const bytes = Buffer.allocUnsafe(8);
    bytes.writeDoubleBE(value);
    return bytes;
  },
  deserialize: (bytes) => {
    if (bytes.length !== 8) throw new TypeError(`double serde: expected 8 bytes, got ${bytes.length}`);
    return bytes.readDoubleBE();
  },
};

export const bytesSerde: Serde<Buffer> = {
  name: "bytes",
  serialize: (value) => {
    if (!Buffer.isBuffer(value)) throw new TypeError("bytes serde: value is not a Buffer");
    return value;
  },
  deserialize: (bytes) => bytes,
};

export const BUILTIN_SERDES: Readonly<Record<string, Serde<any>>> = {
  string: stringSerde,
  json: jsonSerde,
  long: longSerde,
  int: intSerde,
  double: doubleSerde,
  bytes: bytesSerde,
};
