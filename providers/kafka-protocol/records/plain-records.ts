/**
 * Uncompressed record batches of keys and values, written and read without the compression codecs: what a broker
 * writes itself (transaction markers, its transaction log), in a thread that keeps the codecs' modules out.
 */
import { crc32c } from "./crc32c";
import { BATCH_HEADER_SIZE, BATCH_LOG_OVERHEAD, BatchField, compressionCodec } from "./record-batch";

export interface PlainRecord {
  key: Buffer | null;
  value: Buffer | null;
}

export interface PlainBatchOptions {
  timestamp: number;
  /** Control and transactional bits; never a codec. Default 0. */
  attributes?: number;
  producerId?: bigint;
  producerEpoch?: number;
  baseSequence?: number;
}

/** Bytes of a zigzag varint of a non-negative int32. */
function varintSize(value: number): number {
  let zigzag = value * 2;
  let size = 1;
  while (zigzag >= 0x80) {
    zigzag = Math.floor(zigzag / 0x80);
    size++;
  }
  return size;
}

function writeVarint(buffer: Buffer, position: number, value: number): number {
  let zigzag = value < 0 ? -value * 2 - 1 : value * 2;
  while (zigzag >= 0x80) {
    buffer[position++] = (zigzag & 0x7f) | 0x80;
    zigzag = Math.floor(zigzag / 0x80);
  }
  buffer[position++] = zigzag;
  return position;
}

const fieldSize = (field: Buffer | null) => (field === null ? 1 : varintSize(field.length) + field.length);

/** One whole batch of `records` (at least one), its base offset left for the log to assign. */
export function encodePlainBatch(records: readonly PlainRecord[], options: PlainBatchOptions): Buffer {
  if (records.length === 0) throw new Error("a record batch holds at least one record");
  const bodies = records.map(({ key, value }, i) => 1 + 1 + varintSize(i) + fieldSize(key) + fieldSize(value) + 1);
  const size = BATCH_HEADER_SIZE + bodies.reduce((total, body) => total + varintSize(body) + body, 0);
  const batch = Buffer.alloc(size);
  batch.writeInt32BE(size - BATCH_LOG_OVERHEAD, BatchField.batchLength);
  batch.writeInt32BE(-1, BatchField.partitionLeaderEpoch);
  batch.writeInt8(2, BatchField.magic);
  batch.writeInt16BE(options.attributes ?? 0, BatchField.attributes);
  batch.writeInt32BE(records.length - 1, BatchField.lastOffsetDelta);
  batch.writeBigInt64BE(BigInt(options.timestamp), BatchField.baseTimestamp);
  batch.writeBigInt64BE(BigInt(options.timestamp), BatchField.maxTimestamp);
  batch.writeBigInt64BE(options.producerId ?? -1n, BatchField.producerId);
  batch.writeInt16BE(options.producerEpoch ?? -1, BatchField.producerEpoch);
  batch.writeInt32BE(options.baseSequence ?? -1, BatchField.baseSequence);
  batch.writeInt32BE(records.length, BatchField.recordCount);
  let position = BATCH_HEADER_SIZE;
  const writeField = (field: Buffer | null) => {
    position = writeVarint(batch, position, field === null ? -1 : field.length);
    if (field !== null) position += field.copy(batch, position);
  };
  records.forEach(({ key, value }, i) => {
    position = writeVarint(batch, position, bodies[i]);
    batch[position++] = 0; // attributes
    batch[position++] = 0; // timestamp delta
    position = writeVarint(batch, position, i);
    writeField(key);
    writeField(value);
    batch[position++] = 0; // no headers
  });
  batch.writeUInt32BE(crc32c(batch.subarray(BatchField.attributes)), BatchField.crc);
  return batch;
}

/** The keys and values of one whole uncompressed batch; throws for a compressed or malformed one. */
export function readPlainRecords(batch: Buffer): PlainRecord[] {
  if (compressionCodec({ attributes: batch.readInt16BE(BatchField.attributes) }) !== 0) throw new Error("the batch is compressed");
  let position = BATCH_HEADER_SIZE;
  const varint = (): number => {
    let value = 0;
    let multiplier = 1;
    for (;;) {
      const byte = batch[position++];
      if (byte === undefined) throw new Error("a varint runs past the end of the batch");
      value += (byte & 0x7f) * multiplier;
      if (byte < 0x80) return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
      multiplier *= 0x80;
    }
  };
  const field = (): Buffer | null => {
    const length = varint();
    if (length < 0) return null;
    if (position + length > batch.length) throw new Error("a field runs past the end of the batch");
    position += length;
    return batch.subarray(position - length, position);
  };
  const records: PlainRecord[] = [];
  for (let i = batch.readInt32BE(BatchField.recordCount); i > 0; i--) {
    const end = varint() + position;
    position++; // attributes
    varint(); // timestamp delta
    varint(); // offset delta
    const key = field();
    const value = field();
    records.push({ key, value });
    position = end;
  }
  return records;
}
