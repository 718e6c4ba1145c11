/** Where a segment's bytes live: a file (FileLogStore) or memory (MemoryLogStore). */
import type { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import type { ReadBuffers } from "./read-buffers";

export interface SegmentStorage {
  /** Writes `chunks` back to back starting at `position` (the segment's current end); they are not changed later. */
  write(chunks: Buffer[], position: number): Promise<void>;
  /** `buffers`: where a storage that copies the bytes takes the memory for them. */
  read(position: number, length: number, buffers?: ReadBuffers): Promise<ChunkedBytes>;
  /** Makes what was written durable (fsync); a no-op where nothing is durable (memory). */
  sync(): Promise<void>;
  /** Cuts the segment back to `size` bytes (undoing a failed or torn write). */
  truncate(size: number): Promise<void>;
  close(): Promise<void>;
  /** Closes and deletes the segment. */
  remove(): Promise<void>;
}

export interface SegmentStorageFactory {
  create(baseOffset: number): Promise<SegmentStorage>;
}
