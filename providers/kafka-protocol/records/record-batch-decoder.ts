/**
 * Reads the records of a Fetch answer's record set: magic-2 batches, uncompressed or compressed with any codec, each checked
 * against its CRC-32C. Offsets and timestamps come out as numbers (exact up to 2^53), keys and values as
 * ranges of the fetched bytes, made views only when asked for, and headers decoded only when asked for, so a
 * record costs one object.
 */
import { codecName, decompress } from "./compression-codecs";
import { crc32c } from "./crc32c";
import { readInt64Number } from "./int64-numbers";
import { BATCH_HEADER_SIZE, BATCH_LOG_OVERHEAD, BatchField as F, batchSize, CONTROL_BATCH, TRANSACTIONAL_BATCH } from "./record-batch";
import type { RecordHeader } from "./record-batch-encoder";
import { ControlRecordType, controlRecordType } from "./control-batch";

/** Where a field's bytes are in a record's `bytes`: [start, end). */
export interface ByteRange {
  start: number;
  end: number;
}

export class ConsumedRecord {
  constructor(
    readonly offset: number,
    /** CreateTime of the record, or the batch's LogAppendTime when the topic stamps append time. */
    readonly timestamp: number,
    /** The bytes the key, value and headers are in: the fetched record set, or a decompressed batch's records. */
    readonly bytes: Buffer,
    readonly keyStart: number,
    /** The key's length in bytes; -1 for a null key. */
    readonly keySize: number,
    readonly valueStart: number,
    /** The value's length in bytes; -1 for a null value. */
    readonly valueSize: number,
    /** How many headers the record has; they follow the value in `bytes`, checked by the decoder. */
    readonly headerCount: number,
  ) {}

  /** A new view of the key's bytes each time. */
  get key(): Buffer | null {
    return this.keySize < 0 ? null : this.bytes.subarray(this.keyStart, this.keyStart + this.keySize);
  }

  /** A new view of the value's bytes each time. */
  get value(): Buffer | null {
    return this.valueSize < 0 ? null : this.bytes.subarray(this.valueStart, this.valueStart + this.valueSize);
  }

  /** The headers, decoded anew each time; absent when the record has none. A repeated name keeps its last value. */
  get headers(): Record<string, Buffer | null> | undefined {
    if (this.headerCount === 0) return undefined;
    const headers: Record<string, Buffer | null> = {};
    const cursor = new Cursor(this.bytes, this.headersStart());
    for (let h = 0; h < this.headerCount; h++) {
      const nameSize = cursor.field();
      const name = nameSize < 0 ? "" : this.bytes.toString("utf8", cursor.position - nameSize, cursor.position);
      headers[name] = cursor.bytesOrNull();
    }
    return headers;
  }

  /** Every header in order, names repeated as they are, except those named `hidden` (its UTF-8 bytes). */
  headerEntries(hidden?: Uint8Array): RecordHeader[] {
    const entries: RecordHeader[] = [];
    if (this.headerCount === 0) return entries;
    const bytes = this.bytes;
    const cursor = new Cursor(bytes, this.headersStart());
    for (let h = 0; h < this.headerCount; h++) {
      const nameSize = Math.max(cursor.field(), 0);
      const nameStart = cursor.position - nameSize;
      const value = cursor.bytesOrNull();
      if (hidden !== undefined && nameSize === hidden.length && sameBytes(bytes, nameStart, hidden)) continue;
      entries.push({ key: bytes.toString("utf8", nameStart, nameStart + nameSize), value });
    }
    return entries;
  }

  /**
   * Finds the last header named `name` (its UTF-8 bytes) without decoding the others: true, with its value's
   * place in `bytes` written to `range`, when the record has one with a value.
   */
  headerValueRange(name: Uint8Array, range: ByteRange): boolean {
    if (this.headerCount === 0) return false;
    const bytes = this.bytes;
    const cursor = new Cursor(bytes, this.headersStart());
    let found = false;
    for (let h = 0; h < this.headerCount; h++) {
      const nameSize = cursor.field();
      const nameEnd = cursor.position;
      const valueSize = cursor.field();
      if (nameSize !== name.length || valueSize < 0 || !sameBytes(bytes, nameEnd - nameSize, name)) continue;
      range.start = cursor.position - valueSize;
      range.end = cursor.position;
      found = true;
    }
    return found;
  }

  private headersStart(): number {
    const valueEnd = this.valueStart + Math.max(this.valueSize, 0);
    // The header count's varint sits between the value and the first header.
    let position = valueEnd;
    while (this.bytes[position] >= 0x80) position++;
    return position + 1;
  }
}

function sameBytes(bytes: Buffer, start: number, expected: Uint8Array): boolean {
  for (let i = 0; i < expected.length; i++) if (bytes[start + i] !== expected[i]) return false;
  return true;
}

export class CorruptRecordError extends Error {
  constructor(where: string, detail: string) {
    super(`${where}: ${detail}`);
    this.name = "CorruptRecordError";
  }
}

const LOG_APPEND_TIME = 0x08;

/** A cursor over one buffer; varints are zigzag-decoded as the record format writes every one of them. */
class Cursor {
  constructor(
    readonly bytes: Buffer,
    public position: number,
  ) {}

  varint(): number {
    const bytes = this.bytes;
    let value = 0;
    let multiplier = 1;
    for (;;) {
      const byte = bytes[this.position++];
      if (byte === undefined) throw new RangeError("varint runs past the end of the batch");
      value += (byte & 0x7f) * multiplier;
      if (byte < 0x80) break;
      multiplier *= 0x80;
      if (multiplier > 2 ** 63) throw new RangeError("varint longer than 10 bytes");
    }
    // Zigzag: even values are non-negative; works for values past 2^32, where bit operators would not.
    return value % 2 === 0 ? value / 2 : -(value + 1) / 2;
  }

  /** Steps over a length-prefixed field; returns its length, -1 for null (the field's bytes end at `position`). */
  field(): number {
    const length = this.varint();
    if (length < 0) return -1;
    this.position += length;
    if (this.position > this.bytes.length) throw new RangeError(`field of ${length} bytes runs past the end of the batch`);
    return length;
  }

  bytesOrNull(): Buffer | null {
    const length = this.field();
    return length < 0 ? null : this.bytes.subarray(this.position - length, this.position);
  }
}

interface BatchBounds {
  start: number;
  end: number;
  baseOffset: number;
}

/** An aborted transaction a Fetch answer lists: its producer's transactional batches from `firstOffset` on are skipped. */
export interface AbortedTransactionRange {
  producerId: bigint;
  firstOffset: bigint;
}

/** What a read_committed reader is told with a partition's records (KIP-98). */
export interface ReadCommitted {
  /** Records at or after it belong to transactions still open: they are not read, and not stepped past. */
  lastStableOffset: number;
  abortedTransactions: readonly AbortedTransactionRange[];
}

/**
 * The producers whose aborted transactions a read_committed reader is inside of, batch by batch, as Kafka's consumers
 * track them: an aborted transaction starts counting at its first offset and stops at its producer's abort marker.
 */
class AbortedProducers {
  private readonly pending: AbortedTransactionRange[];
  private readonly inside = new Set<bigint>();

  constructor(aborted: readonly AbortedTransactionRange[]) {
    this.pending = [...aborted].sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0));
  }

  /** Whether a batch (whole, from its header at `start`) is to be skipped; a marker ends its producer's abort. */
  skips(recordSet: Buffer, start: number, end: number, lastOffset: number): boolean {
    const producerId = recordSet.readBigInt64BE(start + F.producerId);
    if (producerId < 0n) return false;
    while (this.pending.length > 0 && this.pending[0].firstOffset <= BigInt(lastOffset)) this.inside.add(this.pending.shift()!.producerId);
    const attributes = recordSet.readInt16BE(start + F.attributes);
    if ((attributes & CONTROL_BATCH) !== 0) {
      if (controlRecordType(recordSet.subarray(start, end)) === ControlRecordType.ABORT) this.inside.delete(producerId);
      return true;
    }
    return (attributes & TRANSACTIONAL_BATCH) !== 0 && this.inside.has(producerId);
  }
}

/**
 * The records at or after a fetch offset in one partition's fetched record set, decoded one at a time as they
 * are read, so that each is garbage as soon as its reader is done with it (a fetch holds tens of thousands).
 * Batch headers and checksums are checked up front. A trailing partial batch (a fetch cut at its byte limit)
 * is left for the next fetch. Read read_committed, the batches of aborted transactions are skipped and the reader
 * stops at the last stable offset.
 */
export class FetchedRecords {
  /** The offset after the last complete batch (control batches included); -1 when there is none. */
  readonly nextOffset: number;
  private readonly batches: BatchBounds[] = [];
  private batchIndex = 0;
  private cursor: Cursor | null = null;
  private remaining = 0;
  private baseOffset = 0;
  private baseTimestamp = 0;
  private timestampOverride = -1;
  /** Where the batch of the record last read starts in the record set; -1 before the first. */
  private batchStart = -1;

  /** `where` (topic and partition) names the place in errors. */
  constructor(
    private readonly recordSet: Buffer,
    private readonly fromOffset: number,
    private readonly where: string,
    readCommitted?: ReadCommitted,
  ) {
    let nextOffset = -1;
    let position = 0;
    const aborted = readCommitted && new AbortedProducers(readCommitted.abortedTransactions);
    const stable = readCommitted?.lastStableOffset ?? Number.POSITIVE_INFINITY;
    while (recordSet.length - position >= BATCH_LOG_OVERHEAD) {
      const size = batchSize(recordSet, position);
      if (position + size > recordSet.length) break;
      const baseOffset = readInt64Number(recordSet, position);
      if (baseOffset >= stable) break;
      if (size < BATCH_HEADER_SIZE) throw new CorruptRecordError(where, `batch at offset ${baseOffset} declares ${size} bytes`);
      const magic = recordSet[position + F.magic];
      if (magic !== 2) throw new CorruptRecordError(where, `batch at offset ${baseOffset} has magic ${magic}; only magic 2 (Kafka 0.11+) is read`);
      const end = position + size;
      if (crc32c(recordSet.subarray(position + F.attributes, end)) !== recordSet.readUInt32BE(position + F.crc)) {
        throw new CorruptRecordError(where, `batch at offset ${baseOffset} fails its CRC-32C check`);
      }
      nextOffset = baseOffset + recordSet.readInt32BE(position + F.lastOffsetDelta) + 1;
      const control = (recordSet.readInt16BE(position + F.attributes) & CONTROL_BATCH) !== 0;
      const skipped = aborted !== undefined && aborted.skips(recordSet, position, end, nextOffset - 1);
      if (!control && !skipped && nextOffset > fromOffset) this.batches.push({ start: position, end, baseOffset });
      position = end;
    }
    this.nextOffset = nextOffset;
  }

  /** The next record, or undefined after the last. */
  read(): ConsumedRecord | undefined {
    for (;;) {
      while (this.remaining === 0) {
        if (this.batchIndex === this.batches.length) return undefined;
        this.openBatch(this.batches[this.batchIndex++]);
      }
      this.remaining--;
      const record = this.decodeRecord();
      if (record.offset >= this.fromOffset) return record;
    }
  }

  /** The producer id of the batch of the record last read (-1 for a producer without one, and before the first read). */
  get producerId(): bigint {
    return this.batchStart < 0 ? -1n : this.recordSet.readBigInt64BE(this.batchStart + F.producerId);
  }

  /** Whether the batch of the record last read was written in a transaction (false before the first read). */
  get transactional(): boolean {
    return this.batchStart >= 0 && (this.recordSet.readInt16BE(this.batchStart + F.attributes) & TRANSACTIONAL_BATCH) !== 0;
  }

  private openBatch({ start, end, baseOffset }: BatchBounds): void {
    const recordSet = this.recordSet;
    this.batchStart = start;
    const attributes = recordSet.readInt16BE(start + F.attributes);
    const codec = attributes & 0x07;
    if (codec === 0) this.cursor = new Cursor(recordSet.subarray(0, end), start + BATCH_HEADER_SIZE);
    else {
      let records: Buffer;
      try {
        records = decompress(codec, recordSet.subarray(start + BATCH_HEADER_SIZE, end));
      } catch (error) {
        throw new CorruptRecordError(this.where, `batch at offset ${baseOffset} (${codecName(codec)}) cannot be decompressed: ${(error as Error).message}`);
      }
      this.cursor = new Cursor(records, 0);
    }
    this.baseOffset = baseOffset;
    this.baseTimestamp = readInt64Number(recordSet, start + F.baseTimestamp);
    this.timestampOverride = (attributes & LOG_APPEND_TIME) !== 0 ? readInt64Number(recordSet, start + F.maxTimestamp) : -1;
    this.remaining = recordSet.readInt32BE(start + F.recordCount);
  }

  private decodeRecord(): ConsumedRecord {
    const cursor = this.cursor!;
    try {
      const length = cursor.varint();
      const recordEnd = cursor.position + length;
      cursor.position++; // record attributes: unused
      const timestampDelta = cursor.varint();
      const offset = this.baseOffset + cursor.varint();
      const keySize = cursor.field();
      const keyStart = cursor.position - Math.max(keySize, 0);
      const valueSize = cursor.field();
      const valueStart = cursor.position - Math.max(valueSize, 0);
      const headerCount = cursor.varint();
      if (headerCount < 0) throw new RangeError(`record at offset ${offset} declares ${headerCount} headers`);
      // Stepped over, not decoded: the record decodes them when asked.
      for (let h = 0; h < headerCount; h++) {
        cursor.field();
        cursor.field();
      }
      if (cursor.position !== recordEnd) throw new RangeError(`record at offset ${offset} declares ${length} bytes but holds ${length + cursor.position - recordEnd}`);
      const timestamp = this.timestampOverride >= 0 ? this.timestampOverride : this.baseTimestamp + timestampDelta;
      return new ConsumedRecord(offset, timestamp, cursor.bytes, keyStart, keySize, valueStart, valueSize, headerCount);
    } catch (error) {
      if (error instanceof RangeError) throw new CorruptRecordError(this.where, `batch at offset ${this.baseOffset}: ${error.message}`);
      throw error;
    }
  }
}
