/**
 * Kafka RecordBatch v2 (magic 2) headers: parsing, validation, splitting a record set into its batches.
 * Records stay opaque bytes (possibly compressed): the broker never decodes or decompresses them.
 */
import { ChunkedBytes } from "../chunked-bytes";
import { ApiError, ErrorCode } from "../error-codes";
import { crc32cOfChunks } from "./crc32c";

/** Byte positions of the v2 header fields. */
export const BatchField = {
  baseOffset: 0,
  batchLength: 8,
  partitionLeaderEpoch: 12,
  magic: 16,
  crc: 17,
  attributes: 21,
  lastOffsetDelta: 23,
  baseTimestamp: 27,
  maxTimestamp: 35,
  producerId: 43,
  producerEpoch: 51,
  baseSequence: 53,
  recordCount: 57,
} as const;

/** baseOffset + batchLength: the part of the header not counted by batchLength. */
export const BATCH_LOG_OVERHEAD = 12;
/** A v2 batch header is 61 bytes; records follow. */
export const BATCH_HEADER_SIZE = 61;
const CURRENT_MAGIC = 2;
const COMPRESSION_CODEC_MASK = 0x07;
/** Attribute bit 4: the batch belongs to a transaction of its producer. */
export const TRANSACTIONAL_BATCH = 0x10;
/** Attribute bit 5: the batch holds a control record (a transaction marker), not data. */
export const CONTROL_BATCH = 0x20;

export interface RecordBatchHeader {
  baseOffset: bigint;
  batchLength: number;
  partitionLeaderEpoch: number;
  magic: number;
  crc: number;
  attributes: number;
  lastOffsetDelta: number;
  baseTimestamp: bigint;
  maxTimestamp: bigint;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  recordCount: number;
}

/** Size of the whole batch on the wire (and on disk), from its batchLength field. */
export function batchSize(batch: Buffer, position = 0): number {
  return batch.readInt32BE(position + BatchField.batchLength) + BATCH_LOG_OVERHEAD;
}

export function isTransactionalBatch(header: Pick<RecordBatchHeader, "attributes">): boolean {
  return (header.attributes & TRANSACTIONAL_BATCH) !== 0;
}

export function isControlBatch(header: Pick<RecordBatchHeader, "attributes">): boolean {
  return (header.attributes & CONTROL_BATCH) !== 0;
}

export function compressionCodec(header: Pick<RecordBatchHeader, "attributes">): number {
  return header.attributes & COMPRESSION_CODEC_MASK;
}

/** Reads the 61-byte header at `position`; throws CORRUPT_MESSAGE when fewer bytes remain. */
export function readBatchHeader(batch: Buffer, position = 0): RecordBatchHeader {
  if (batch.length - position < BATCH_HEADER_SIZE) {
    throw new ApiError(
      ErrorCode.CORRUPT_MESSAGE,
      `record batch header needs ${BATCH_HEADER_SIZE} bytes, ${batch.length - position} left`,
    );
  }
  const at = (field: number) => position + field;
  return {
    baseOffset: batch.readBigInt64BE(at(BatchField.baseOffset)),
    batchLength: batch.readInt32BE(at(BatchField.batchLength)),
    partitionLeaderEpoch: batch.readInt32BE(at(BatchField.partitionLeaderEpoch)),
    magic: batch.readInt8(at(BatchField.magic)),
    crc: batch.readUInt32BE(at(BatchField.crc)),
    attributes: batch.readInt16BE(at(BatchField.attributes)),
    lastOffsetDelta: batch.readInt32BE(at(BatchField.lastOffsetDelta)),
    baseTimestamp: batch.readBigInt64BE(at(BatchField.baseTimestamp)),
    maxTimestamp: batch.readBigInt64BE(at(BatchField.maxTimestamp)),
    producerId: batch.readBigInt64BE(at(BatchField.producerId)),
    producerEpoch: batch.readInt16BE(at(BatchField.producerEpoch)),
    baseSequence: batch.readInt32BE(at(BatchField.baseSequence)),
    recordCount: batch.readInt32BE(at(BatchField.recordCount)),
  };
}

/**
 * Checks that `batch` is exactly one well-formed magic-2 batch with a valid CRC-32C and returns its header.
 * Throws UNSUPPORTED_FOR_MESSAGE_FORMAT for another magic, CORRUPT_MESSAGE for a bad length or checksum,
 * INVALID_RECORD when the record count and offset delta disagree.
 */
export function validateBatch(batch: ChunkedBytes): RecordBatchHeader {
  if (batch.length < BATCH_LOG_OVERHEAD + 5) {
    throw new ApiError(ErrorCode.CORRUPT_MESSAGE, `record batch of ${batch.length} bytes is too short`);
  }
  const magic = batch.contiguous(BatchField.magic, 1).readInt8(0);
  if (magic !== CURRENT_MAGIC) {
    throw new ApiError(
      ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT,
      `record batch magic ${magic} is not supported (only ${CURRENT_MAGIC})`,
    );
  }
  const header = readBatchHeader(batch.contiguous(0, Math.min(batch.length, BATCH_HEADER_SIZE)));
  const declared = header.batchLength + BATCH_LOG_OVERHEAD;
  if (header.batchLength < BATCH_HEADER_SIZE - BATCH_LOG_OVERHEAD || declared !== batch.length) {
    throw new ApiError(
      ErrorCode.CORRUPT_MESSAGE,
      `record batch declares ${declared} bytes but has ${batch.length}`,
    );
  }
  const actualCrc = crc32cOfChunks(batch.slice(BatchField.attributes).chunks);
  if (actualCrc !== header.crc) {
    throw new ApiError(
      ErrorCode.CORRUPT_MESSAGE,
      `record batch CRC-32C mismatch: stored ${header.crc}, computed ${actualCrc}`,
    );
  }
  if (header.recordCount < 1 || header.lastOffsetDelta !== header.recordCount - 1) {
    throw new ApiError(
      ErrorCode.INVALID_RECORD,
      `record batch has ${header.recordCount} records but lastOffsetDelta ${header.lastOffsetDelta}`,
    );
  }
  return header;
}

/**
 * Splits a Produce request's records field into its batches (as views, not copies).
 * Throws CORRUPT_MESSAGE when a batch is truncated or its length field is impossible.
 */
export function splitBatches(records: ChunkedBytes): ChunkedBytes[] {
  const batches: ChunkedBytes[] = [];
  let position = 0;
  while (position < records.length) {
    const remaining = records.length - position;
    if (remaining < BATCH_LOG_OVERHEAD) {
      throw new ApiError(ErrorCode.CORRUPT_MESSAGE, `${remaining} trailing bytes are not a record batch`);
    }
    const size = batchSize(records.contiguous(position, BATCH_LOG_OVERHEAD));
    if (size < BATCH_HEADER_SIZE || size > remaining) {
      throw new ApiError(
        ErrorCode.CORRUPT_MESSAGE,
        `record batch at byte ${position} declares ${size} bytes, ${remaining} available`,
      );
    }
    batches.push(records.slice(position, position + size));
    position += size;
  }
  return batches;
}

/** The 8-byte base offset field holding `offset`; lets a writer prepend it to `batch.subarray(8)` without copying. */
export function encodeBaseOffset(offset: bigint): Buffer {
  const field = Buffer.allocUnsafe(8);
  field.writeBigInt64BE(offset);
  return field;
}
