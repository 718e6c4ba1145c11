/**
 * The scenario serdes of topic keys and values, written from the script's JSON and read back into it with Kafka
 * Streams' byte layouts, independently of Sluice's own serdes: what Sluice writes is judged by its bytes.
 */
import type { JsonValue, TopicSerde } from "./scenario-script";

function int64(bytes: Buffer, offset: number): number {
  return Number(bytes.readBigInt64BE(offset));
}

function int64Bytes(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64BE(BigInt(value));
  return bytes;
}

/** Windowed keys: their bytes are part of the contract, so the goldens keep them. */
export function keepsBytes(serde: TopicSerde): boolean {
  return typeof serde === "object";
}

export function encode(serde: TopicSerde, value: JsonValue): Buffer | null {
  if (value === null) return null;
  if (typeof serde === "object") {
    const windowed = value as { key: JsonValue; start: number; end: number };
    const inner = encode("windowed" in serde ? serde.windowed : serde.session, windowed.key)!;
    // Time windows: key, start. Session windows: key, end, start (Kafka Streams' WindowKeySchema and SessionKeySchema).
    const times = "windowed" in serde ? [int64Bytes(windowed.start)] : [int64Bytes(windowed.end), int64Bytes(windowed.start)];
    return Buffer.concat([inner, ...times]);
  }
  switch (serde) {
    case "string":
      return Buffer.from(String(value), "utf8");
    case "long":
      return int64Bytes(value as number);
    case "int": {
      const bytes = Buffer.alloc(4);
      bytes.writeInt32BE(value as number);
      return bytes;
    }
    case "double": {
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleBE(value as number);
      return bytes;
    }
    case "json":
      return Buffer.from(JSON.stringify(value), "utf8");
    case "bytes":
      return Buffer.from(value as string, "hex");
  }
}

export function decode(serde: TopicSerde, bytes: Buffer | null): JsonValue {
  if (bytes === null) return null;
  if (typeof serde === "object") {
    if ("windowed" in serde) {
      const start = int64(bytes, bytes.length - 8);
      return { key: decode(serde.windowed, bytes.subarray(0, bytes.length - 8)), start, end: start + serde.size };
    }
    return { key: decode(serde.session, bytes.subarray(0, bytes.length - 16)), start: int64(bytes, bytes.length - 8), end: int64(bytes, bytes.length - 16) };
  }
  switch (serde) {
    case "string":
      return bytes.toString("utf8");
    case "long":
      return int64(bytes, 0);
    case "int":
      return bytes.readInt32BE(0);
    case "double":
      return bytes.readDoubleBE(0);
    case "json":
      return JSON.parse(bytes.toString("utf8")) as JsonValue;
    case "bytes":
      return bytes.toString("hex");
  }
}
