/**
 * Rebuilds a segment's index by scanning its file, and finds where its valid batches end: a torn write
 * (short header, length past the end of the file, bad magic, offsets going backwards or, where checked,
 * a bad CRC) marks the end of what may be served. Each valid batch's header is shown to `onBatch`, with a control
 * batch's record type.
 */
import { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import { ApiError } from "../../kafka-protocol/error-codes";
import { BatchIndex } from "./batch-index";
import type { PositionalFile } from "./positional-file";
import { BATCH_HEADER_SIZE, BATCH_LOG_OVERHEAD, isControlBatch, readBatchHeader, validateBatch, type RecordBatchHeader } from "../../kafka-protocol/records/record-batch";
import { controlRecordType } from "../../kafka-protocol/records/control-batch";

const SCAN_WINDOW_BYTES = 1 << 20;
const CURRENT_MAGIC = 2;

export interface SegmentScan {
  index: BatchIndex;
  /** Bytes of whole valid batches from the start of the file. */
  validSize: number;
  /** Why the scan stopped before the end of the file. */
  problem?: string;
}

/** Reads a file through a sliding window, so memory stays bounded whatever the segment size. */
class ScanWindow {
  private buffer: Buffer = Buffer.alloc(0);
  private start = 0;

  constructor(
    private readonly storage: PositionalFile,
    private readonly fileSize: number,
  ) {}

  /** The bytes `[position, position + length)`, read from the file when the window does not cover them. */
  async bytes(position: number, length: number): Promise<Buffer> {
    if (position < this.start || position + length > this.start + this.buffer.length) {
      this.start = position;
      this.buffer = await this.storage.readBytes(position, Math.max(length, Math.min(SCAN_WINDOW_BYTES, this.fileSize - position)));
    }
    return this.buffer.subarray(position - this.start, position - this.start + length);
  }
}

export async function scanSegment(
  storage: PositionalFile,
  baseOffset: number,
  verifyChecksums: boolean,
  onBatch: (header: RecordBatchHeader, controlType?: number) => void = () => undefined,
): Promise<SegmentScan> {
  const fileSize = await storage.fileSize();
  const window = new ScanWindow(storage, fileSize);
  const index = new BatchIndex();
  let position = 0;
  let expectedOffset = baseOffset;
  const stop = (problem: string): SegmentScan => ({ index, validSize: position, problem: `${problem} at byte ${position}` });
  while (position < fileSize) {
    if (fileSize - position < BATCH_HEADER_SIZE) return stop(`short batch header (${fileSize - position} bytes)`);
    const header = readBatchHeader(await window.bytes(position, BATCH_HEADER_SIZE));
    const size = header.batchLength + BATCH_LOG_OVERHEAD;
    if (header.magic !== CURRENT_MAGIC) return stop(`bad magic ${header.magic}`);
    if (size < BATCH_HEADER_SIZE) return stop(`impossible batch length ${header.batchLength}`);
    if (header.lastOffsetDelta < 0) return stop(`negative last offset delta ${header.lastOffsetDelta}`);
    if (position + size > fileSize) return stop(`batch of ${size} bytes runs past the end of the file (${fileSize})`);
    const batchOffset = Number(header.baseOffset);
    if (batchOffset < expectedOffset) return stop(`batch offset ${batchOffset} goes back before ${expectedOffset}`);
    if (verifyChecksums) {
      try {
        validateBatch(ChunkedBytes.of(await window.bytes(position, size)));
      } catch (error) {
        if (error instanceof ApiError) return stop(error.message);
        throw error;
      }
    }
    index.add(batchOffset, header.lastOffsetDelta, position, Number(header.maxTimestamp));
    onBatch(header, isControlBatch(header) ? controlRecordType(await window.bytes(position, size)) : undefined);
    expectedOffset = batchOffset + header.lastOffsetDelta + 1;
    position += size;
  }
  return { index, validSize: position };
}
