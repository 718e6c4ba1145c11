/** A minimal RecordBatch v2 encoder for tests: uncompressed records, or any pre-encoded (compressed) payload. */
import { gzipSync } from "node:zlib";
import { crc32c } from "../../../../providers/broker/storage/crc32c";

export interface TestRecord {
  key?: string;
  value: string;
  timestampDelta?: number;
}

export interface TestBatch {
  records: TestRecord[];
  baseTimestamp?: bigint;
  /** Defaults to baseTimestamp + the largest timestamp delta. */
  maxTimestamp?: bigint;
  baseOffset?: bigint;
  magic?: number;
  /** 1 = gzip: the records are gzip-compressed, as a producer would send them. */
  compression?: 0 | 1;
}

function zigzagVarint(value: number): Buffer {
  let n = BigInt(value);
  n = n >= 0n ? n << 1n : (-n << 1n) - 1n;
  const bytes: number[] = [];
  do {
    let byte = Number(n & 0x7fn);
    n >>= 7n;
    if (n > 0n) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0n);
  return Buffer.from(bytes);
}

function encodeRecord(record: TestRecord, offsetDelta: number): Buffer {
  const key = record.key === undefined ? null : Buffer.from(record.key);
  const value = Buffer.from(record.value);
  const body = Buffer.concat([
    Buffer.from([0]),
    zigzagVarint(record.timestampDelta ?? 0),
    zigzagVarint(offsetDelta),
    key === null ? zigzagVarint(-1) : Buffer.concat([zigzagVarint(key.length), key]),
    zigzagVarint(value.length),
    value,
    zigzagVarint(0),
  ]);
  return Buffer.concat([zigzagVarint(body.length), body]);
}

export function encodeBatch(batch: TestBatch): Buffer {
  const baseTimestamp = batch.baseTimestamp ?? 1_700_000_000_000n;
  const maxDelta = Math.max(0, ...batch.records.map((r) => r.timestampDelta ?? 0));
  const records = Buffer.concat(batch.records.map(encodeRecord));
  const payload = batch.compression === 1 ? gzipSync(records) : records;
  const header = Buffer.alloc(61);
  header.writeBigInt64BE(batch.baseOffset ?? 0n, 0);
  header.writeInt32BE(61 - 12 + payload.length, 8);
  header.writeInt32BE(0, 12);
  header.writeInt8(batch.magic ?? 2, 16);
  header.writeInt16BE(batch.compression ?? 0, 21);
  header.writeInt32BE(batch.records.length - 1, 23);
  header.writeBigInt64BE(baseTimestamp, 27);
  header.writeBigInt64BE(batch.maxTimestamp ?? baseTimestamp + BigInt(maxDelta), 35);
  header.writeBigInt64BE(-1n, 43);
  header.writeInt16BE(-1, 51);
  header.writeInt32BE(-1, 53);
  header.writeInt32BE(batch.records.length, 57);
  const bytes = Buffer.concat([header, payload]);
  bytes.writeUInt32BE(crc32c(bytes.subarray(21)), 17);
  return bytes;
}

/** A batch of `count` records whose values are `${prefix}-${i}`, about `valueBytes` each. */
export function batchOf(count: number, prefix = "v", valueBytes = 0, baseTimestamp?: bigint): Buffer {
  const pad = "x".repeat(valueBytes);
  return encodeBatch({
    baseTimestamp,
    records: Array.from({ length: count }, (_, i) => ({ key: `k${i}`, value: `${prefix}-${i}${pad}` })),
  });
}
