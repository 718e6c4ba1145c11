/**
 * Encodes records into Kafka RecordBatch v2 (magic 2): CreateTime, compressed with a given codec, stamped with an
 * idempotent or transactional producer's id, epoch and sequences or with none. Each record is measured, then written in place into
 * its batch's buffer, so a record costs no allocation of its own; a string key or value is written there as its
 * UTF-8. Records are written as they come (RecordBatchAppender); the header, codec and stamp come at the send.
 */
import { compress } from "./compression-codecs";
import { BATCH_HEADER_SIZE, BATCH_LOG_OVERHEAD, BatchField as F, TRANSACTIONAL_BATCH } from "./record-batch";
import { writeInt64Number } from "./int64-numbers";
import { utf8Bytes, writeUtf8 } from "./utf8-text";
import { incrementSequence, NO_PRODUCER, stampProducer, type ProducerStamp } from "./producer-stamp";

export interface ProducerRecord {
  /** A string key or value stands for its UTF-8 bytes: the encoder writes them, with no Buffer of their own. */
  key: Buffer | string | null;
  value: Buffer | string | null;
  /** CreateTime, epoch milliseconds. */
  timestamp: number;
  /** Headers in order, a name may repeat (a record's own, as a stream processor carries them): written first. */
  headerList?: readonly RecordHeader[];
  /** Headers by name, written after `headerList`. */
  headers?: Readonly<Record<string, Buffer | string>>;
  /** One header more, written last. */
  stamp?: StampHeader;
}

/** A header as Kafka's record format holds it: a name, and bytes or null. */
export interface RecordHeader {
  readonly key: string;
  readonly value: Buffer | null;
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
  const list = record.headerList;
  if (list !== undefined) {
    for (const header of list) size += fieldSize(utf8Bytes(header.key)) + fieldSize(fieldBytes(header.value));
    count += list.length;
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
  const list = record.headerList;
  const stamp = record.stamp;
  let count = (stamp === undefined ? 0 : 1) + (list === undefined ? 0 : list.length);
  if (headers !== undefined) for (const _ in headers) count++;
  position = writeVarint(buffer, position, count * 2);
  if (list !== undefined) {
    for (const { key, value } of list) position = writeField(buffer, writeField(buffer, position, key, utf8Bytes(key)), value, fieldBytes(value));
  }
  if (headers !== undefined) {
    for (const name in headers) {
      const value = headers[name];
      position = writeField(buffer, writeHeaderName(buffer, position, name), value, fieldBytes(value));
    }
  }
  if (stamp !== undefined) position = stamp.writeValue(buffer, writeVarint(buffer, writeBytes(buffer, position, stamp.name), stamp.valueBytes * 2));
  return position;
}

/** Writes a record whose parts measure `body` (its length prefix), `keyBytes` and `valueBytes`; returns where it ends. */
function writeRecord(buffer: Buffer, position: number, record: ProducerRecord, body: number, keyBytes: number, valueBytes: number, timestampDelta: number, offsetDelta: number): number {
  position = writeVarint(buffer, position, body * 2);
  buffer[position++] = 0; // record attributes
  position = writeVarint(buffer, position, zigzag(timestampDelta));
  position = writeVarint(buffer, position, offsetDelta * 2);
  position = writeField(buffer, position, record.key, keyBytes);
  position = writeField(buffer, position, record.value, valueBytes);
  if (record.headers === undefined && record.stamp === undefined && record.headerList === undefined) buffer[position++] = 0;
  else position = writeHeaders(buffer, position, record);
  return position;
}

/**
 * A batch whose records are written and whose header is not: room for it, then the records, uncompressed. The
 * producer finishes it when it sends it (finishBatches), with its codec and its stamp.
 */
export interface OpenRecordBatch {
  /** The header's room and the records, exactly. */
  bytes: Buffer;
  count: number;
  baseTimestamp: number;
  maxTimestamp: number;
}

/** How many records `batches` hold. */
export function recordCount(batches: readonly { count: number }[]): number {
  let count = 0;
  for (const batch of batches) count += batch.count;
  return count;
}

/** Where a batch starts growing when the appender has no earlier batch to go by. */
const FIRST_CAPACITY = 1024;

/**
 * A partition's records written one at a time, as they come, into open batches of at most `maxBatchBytes` each
 * (a record that alone exceeds it gets a batch of its own). Holding records as bytes from the start, rather than as
 * objects until a send, lets the objects die young. Each batch grows by doubling, from the size of the batch before.
 */
export class RecordBatchAppender {
  private buffer: Buffer = Buffer.alloc(0);
  private position = BATCH_HEADER_SIZE;
  private count = 0;
  private baseTimestamp = 0;
  private maxTimestamp = 0;
  private capacityHint = FIRST_CAPACITY;
  private written: OpenRecordBatch[] = [];
  /** Records appended since the last take. */
  appended = 0;

  constructor(private readonly maxBatchBytes = DEFAULT_MAX_BATCH_BYTES) {}

  append(record: ProducerRecord): void {
    const keyBytes = fieldBytes(record.key);
    const valueBytes = fieldBytes(record.value);
    const timestamp = record.timestamp;
    if (this.count === 0) this.baseTimestamp = this.maxTimestamp = timestamp;
    let body = bodySize(record, keyBytes, valueBytes, timestamp - this.baseTimestamp, this.count);
    let size = varintBytes(body * 2) + body;
    if (this.count > 0 && this.position + size > this.maxBatchBytes) {
      this.close();
      this.baseTimestamp = this.maxTimestamp = timestamp;
      body = bodySize(record, keyBytes, valueBytes, 0, 0);
      size = varintBytes(body * 2) + body;
    }
    this.makeRoom(size);
    this.position = writeRecord(this.buffer, this.position, record, body, keyBytes, valueBytes, timestamp - this.baseTimestamp, this.count);
    if (timestamp > this.maxTimestamp) this.maxTimestamp = timestamp;
    this.count++;
    this.appended++;
  }

  /** The batches written since the last take, in order; the appender starts afresh. */
  take(): OpenRecordBatch[] {
    if (this.count > 0) this.close();
    const taken = this.written;
    this.written = [];
    this.appended = 0;
    return taken;
  }

  private makeRoom(size: number): void {
    const needed = this.position + size;
    if (needed <= this.buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, Math.min(this.maxBatchBytes, Math.max(this.capacityHint, this.buffer.length * 2))));
    if (this.count > 0) this.buffer.copy(grown, BATCH_HEADER_SIZE, BATCH_HEADER_SIZE, this.position);
    this.buffer = grown;
  }

  private close(): void {
    this.written.push({ bytes: this.buffer.subarray(0, this.position), count: this.count, baseTimestamp: this.baseTimestamp, maxTimestamp: this.maxTimestamp });
    this.capacityHint = Math.max(FIRST_CAPACITY, this.position);
    this.buffer = Buffer.alloc(0);
    this.position = BATCH_HEADER_SIZE;
    this.count = 0;
  }
}

/** A batch of the same header room whose records section is `plain`'s compressed. */
function withCompressedRecords(plain: Buffer, codec: number): Buffer {
  const compressed = compress(codec, plain.subarray(BATCH_HEADER_SIZE));
  const batch = Buffer.allocUnsafe(BATCH_HEADER_SIZE + compressed.length);
  compressed.copy(batch, BATCH_HEADER_SIZE);
  return batch;
}

/** Fills in the header of a batch of `count` records, and its CRC. */
function finishBatch(batch: Buffer, count: number, baseTimestamp: number, maxTimestamp: number, codec: number, producer: ProducerStamp): Buffer {
  writeInt64Number(batch, F.baseOffset, 0); // the broker assigns it
  batch.writeInt32BE(batch.length - BATCH_LOG_OVERHEAD, F.batchLength);
  batch.writeInt32BE(-1, F.partitionLeaderEpoch);
  batch[F.magic] = 2;
  batch.writeInt16BE(codec | (producer.transactional ? TRANSACTIONAL_BATCH : 0), F.attributes); // the codec, CreateTime
  batch.writeInt32BE(count - 1, F.lastOffsetDelta);
  writeInt64Number(batch, F.baseTimestamp, baseTimestamp);
  writeInt64Number(batch, F.maxTimestamp, maxTimestamp);
  batch.writeInt32BE(count, F.recordCount);
  stampProducer(batch, producer);
  return batch;
}

/**
 * Open batches finished as the producer sends them: compressed with codec `codec` (0: none), header written, stamped
 * with an idempotent producer's stamp or with none. With a stamp, the first batch starts at its base sequence and
 * each next one where the last ended. An uncompressed batch is finished in its own bytes.
 */
export function finishBatches(open: readonly OpenRecordBatch[], codec = 0, producer = NO_PRODUCER): EncodedBatch[] {
  let stamp = producer;
  return open.map(({ bytes, count, baseTimestamp, maxTimestamp }) => {
    const batch = finishBatch(codec === 0 ? bytes : withCompressedRecords(bytes, codec), count, baseTimestamp, maxTimestamp, codec, stamp);
    if (stamp.producerId >= 0n) stamp = { ...stamp, baseSequence: incrementSequence(stamp.baseSequence, count) };
    return { bytes: batch, count };
  });
}

/** The records, in order, as open batches of at most `maxBatchBytes` each; no records, no batches. */
export function openRecordBatches(records: readonly ProducerRecord[], maxBatchBytes = DEFAULT_MAX_BATCH_BYTES): OpenRecordBatch[] {
  const appender = new RecordBatchAppender(maxBatchBytes);
  for (const record of records) appender.append(record);
  return appender.take();
}

/**
 * The records, in order, as consecutive finished batches of at most `maxBatchBytes` each (see RecordBatchAppender
 * and finishBatches).
 */
export function encodeRecordBatches(records: readonly ProducerRecord[], maxBatchBytes = DEFAULT_MAX_BATCH_BYTES, codec = 0, producer = NO_PRODUCER): EncodedBatch[] {
  return finishBatches(openRecordBatches(records, maxBatchBytes), codec, producer);
}

/** All the records in one batch, however large. */
export function encodeRecordBatch(records: readonly ProducerRecord[]): Buffer {
  if (records.length === 0) throw new Error("a record batch holds at least one record");
  return encodeRecordBatches(records, Number.POSITIVE_INFINITY)[0].bytes;
}
