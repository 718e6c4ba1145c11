/**
 * Encodes records into Kafka RecordBatch v2 (magic 2): CreateTime, compressed with a given codec, stamped with an
 * idempotent producer's id, epoch and sequences or with none. Every batch is measured exactly first and written in
 * place into one buffer, so a record costs no allocation of its own; a string key or value is written there as its
 * UTF-8.
 */
import { compress } from "./compression-codecs";
import { BATCH_HEADER_SIZE, BATCH_LOG_OVERHEAD, BatchField as F } from "./record-batch";
import { writeInt64Number } from "./int64-numbers";
import { utf8Bytes, writeUtf8 } from "./utf8-text";
import { incrementSequence, NO_PRODUCER, stampProducer, type ProducerStamp } from "./producer-stamp";

export interface ProducerRecord {
  /** A string key or value stands for its UTF-8 bytes: the encoder writes them, with no Buffer of their own. */
  key: Buffer | string | null;
  value: Buffer | string | null;
  /** CreateTime, epoch milliseconds. */
  timestamp: number;
  headers?: Readonly<Record<string, Buffer | string>>;
  /** One header more, written after `headers`. */
  stamp?: StampHeader;
}

/**
 * A header whose value is made of parts that change record by record (a sequence stamp): the encoder asks its
 * size and has it write itself into the batch, so a record costs no string, Buffer or headers object for it.
 */
export interface StampHeader {
  /** The header's name in UTF-8. */
  readonly name: Buffer;
  /** Bytes of the value. */
  readonly valueBytes: number;
  /** Writes the value at `position`; returns where it ends. */
  writeValue(buffer: Buffer, position: number): number;
}

export interface EncodedBatch {
  bytes: Buffer;
  /** How many records it holds. */
  count: number;
}

/** Kafka's default message.max.bytes is 1,048,588; a batch stays a little below it. */
export const DEFAULT_MAX_BATCH_BYTES = 1_000_000;

/** Sizes of the records being encoded: bodies (the length prefix), keys and values (-1: null); grow, never shrink. */
let bodySizes = new Int32Array(1024);
let keySizes = new Int32Array(1024);
let valueSizes = new Int32Array(1024);

function zigzag(value: number): number {
  return value >= 0 ? value * 2 : -value * 2 - 1;
}

/** Bytes of an unsigned varint; values up to 2^53. */
function varintBytes(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  let bytes = 5;
  for (let rest = Math.floor(value / 0x800000000); rest > 0; rest = Math.floor(rest / 0x80)) bytes++;
  return bytes;
}

function writeVarint(buffer: Buffer, position: number, value: number): number {
  while (value >= 0x80000000) {
    // `& 0x7f` keeps the low bits of integers up to 2^53; the division stays exact.
    buffer[position++] = (value & 0x7f) | 0x80;
    value = Math.floor(value / 0x80);
  }
  while (value >= 0x80) {
    buffer[position++] = (value & 0x7f) | 0x80;
    value >>>= 7;
  }
  buffer[position++] = value;
  return position;
}

/** Bytes of a key, value or header value; -1 for null. */
function fieldBytes(field: Buffer | string | null): number {
  return field === null ? -1 : typeof field === "string" ? utf8Bytes(field) : field.length;
}

/** What a key, value or header part of `bytes` (-1: null) takes: its length, then itself. */
function fieldSize(bytes: number): number {
  return bytes < 0 ? 1 : varintBytes(bytes * 2) + bytes;
}

/** The record's length prefix counts what follows it: attributes through headers. */
function bodySize(record: ProducerRecord, keyBytes: number, valueBytes: number, timestampDelta: number, offsetDelta: number): number {
  let size = 1 + varintBytes(zigzag(timestampDelta)) + varintBytes(offsetDelta * 2) + fieldSize(keyBytes) + fieldSize(valueBytes);
  const headers = record.headers;
  let count = 0;
  const stamp = record.stamp;
  if (stamp !== undefined) {
    size += fieldSize(stamp.name.length) + fieldSize(stamp.valueBytes);
    count++;
  }
  if (headers !== undefined) {
    for (const name in headers) {
      size += fieldSize(utf8Bytes(name)) + fieldSize(fieldBytes(headers[name]));
      count++;
    }
  }
  return size + varintBytes(count * 2);
}

function writeBytes(buffer: Buffer, position: number, bytes: Buffer | null): number {
  if (bytes === null) {
    buffer[position] = 1; // zigzag(-1)
    return position + 1;
  }
  position = writeVarint(buffer, position, bytes.length * 2);
  buffer.set(bytes, position);
  return position + bytes.length;
}

/** Writes a key, value or header value, `bytes` long (in UTF-8 for a string), with its length. */
function writeField(buffer: Buffer, position: number, field: Buffer | string | null, bytes: number): number {
  return typeof field === "string" ? writeUtf8(buffer, writeVarint(buffer, position, bytes * 2), field, bytes) : writeBytes(buffer, position, field);
}

/** The last header name written and its bytes: a runtime writes the same one or two names over and over. */
let lastName = "";
let lastNameBytes = Buffer.alloc(0);

function writeHeaderName(buffer: Buffer, position: number, name: string): number {
  if (name !== lastName) {
    lastNameBytes = Buffer.from(name, "utf8");
    lastName = name;
  }
  return writeBytes(buffer, position, lastNameBytes);
}

/** The headers section of a record with headers of its own or a stamp header (or both). */
function writeHeaders(buffer: Buffer, position: number, record: ProducerRecord): number {
  const headers = record.headers;
  const stamp = record.stamp;
  let count = stamp === undefined ? 0 : 1;
  if (headers !== undefined) for (const _ in headers) count++;
  position = writeVarint(buffer, position, count * 2);
  if (headers !== undefined) {
    for (const name in headers) {
      const value = headers[name];
      position = writeField(buffer, writeHeaderName(buffer, position, name), value, fieldBytes(value));
    }
  }
  if (stamp !== undefined) position = stamp.writeValue(buffer, writeVarint(buffer, writeBytes(buffer, position, stamp.name), stamp.valueBytes * 2));
  return position;
}

/**
 * Writes records [start, end), whose sizes are in `bodySizes`, `keySizes` and `valueSizes` and whose encoded
 * records take `recordsBytes`, compressed with codec `codec` (0: none).
 */
function writeBatch(records: readonly ProducerRecord[], start: number, end: number, recordsBytes: number, codec: number, producer: ProducerStamp): Buffer {
  const batch = Buffer.allocUnsafe(BATCH_HEADER_SIZE + recordsBytes);
  const baseTimestamp = records[start].timestamp;
  let maxTimestamp = baseTimestamp;
  let position = BATCH_HEADER_SIZE;
  for (let i = start; i < end; i++) {
    const record = records[i];
    const timestamp = record.timestamp;
    if (timestamp > maxTimestamp) maxTimestamp = timestamp;
    position = writeVarint(batch, position, bodySizes[i] * 2);
    batch[position++] = 0; // record attributes
    position = writeVarint(batch, position, zigzag(timestamp - baseTimestamp));
    position = writeVarint(batch, position, (i - start) * 2);
    position = writeField(batch, position, record.key, keySizes[i]);
    position = writeField(batch, position, record.value, valueSizes[i]);
    if (record.headers === undefined && record.stamp === undefined) batch[position++] = 0;
    else position = writeHeaders(batch, position, record);
  }
  return finishBatch(codec === 0 ? batch : withCompressedRecords(batch, codec), start, end, baseTimestamp, maxTimestamp, codec, producer);
}

/** A batch of the same header room whose records section is `plain`'s compressed. */
function withCompressedRecords(plain: Buffer, codec: number): Buffer {
  const compressed = compress(codec, plain.subarray(BATCH_HEADER_SIZE));
  const batch = Buffer.allocUnsafe(BATCH_HEADER_SIZE + compressed.length);
  compressed.copy(batch, BATCH_HEADER_SIZE);
  return batch;
}

/** Fills in the header of a batch of records [start, end) and its CRC. */
function finishBatch(batch: Buffer, start: number, end: number, baseTimestamp: number, maxTimestamp: number, codec: number, producer: ProducerStamp): Buffer {
  writeInt64Number(batch, F.baseOffset, 0); // the broker assigns it
  batch.writeInt32BE(batch.length - BATCH_LOG_OVERHEAD, F.batchLength);
  batch.writeInt32BE(-1, F.partitionLeaderEpoch);
  batch[F.magic] = 2;
  batch.writeInt16BE(codec, F.attributes); // the codec, CreateTime
  batch.writeInt32BE(end - start - 1, F.lastOffsetDelta);
  writeInt64Number(batch, F.baseTimestamp, baseTimestamp);
  writeInt64Number(batch, F.maxTimestamp, maxTimestamp);
  batch.writeInt32BE(end - start, F.recordCount);
  stampProducer(batch, producer);
  return batch;
}

/**
 * The records, in order, as consecutive batches of at most `maxBatchBytes` each; a record that alone exceeds
 * it gets a batch of its own (which the broker may refuse as too large). No records, no batches. With an
 * idempotent producer's stamp, the first batch starts at its base sequence and each next one where the last ended.
 */
export function encodeRecordBatches(records: readonly ProducerRecord[], maxBatchBytes = DEFAULT_MAX_BATCH_BYTES, codec = 0, producer = NO_PRODUCER): EncodedBatch[] {
  const batches: EncodedBatch[] = [];
  if (records.length === 0) return batches;
  if (bodySizes.length < records.length) {
    bodySizes = new Int32Array(Math.max(records.length, bodySizes.length * 2));
    keySizes = new Int32Array(bodySizes.length);
    valueSizes = new Int32Array(bodySizes.length);
  }
  let start = 0;
  let baseTimestamp = records[0].timestamp;
  let recordsBytes = 0;
  let stamp = producer;
  const write = (end: number) => {
    batches.push({ bytes: writeBatch(records, start, end, recordsBytes, codec, stamp), count: end - start });
    if (stamp.producerId >= 0n) stamp = { ...stamp, baseSequence: incrementSequence(stamp.baseSequence, end - start) };
  };
  for (let i = 0; i < records.length; ) {
    const record = records[i];
    const keyBytes = fieldBytes(record.key);
    const valueBytes = fieldBytes(record.value);
    const body = bodySize(record, keyBytes, valueBytes, record.timestamp - baseTimestamp, i - start);
    const size = varintBytes(body * 2) + body;
    if (i > start && BATCH_HEADER_SIZE + recordsBytes + size > maxBatchBytes) {
      write(i);
      start = i;
      baseTimestamp = record.timestamp;
      recordsBytes = 0;
      continue; // measure it again against its own batch's base
    }
    bodySizes[i] = body;
    keySizes[i] = keyBytes;
    valueSizes[i] = valueBytes;
    recordsBytes += size;
    i++;
  }
  write(records.length);
  return batches;
}

/** All the records in one batch, however large. */
export function encodeRecordBatch(records: readonly ProducerRecord[]): Buffer {
  if (records.length === 0) throw new Error("a record batch holds at least one record");
  return encodeRecordBatches(records, Number.POSITIVE_INFINITY)[0].bytes;
}
