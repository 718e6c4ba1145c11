/** Segment bytes kept in memory as the written chunks themselves (views of the requests they came in). */
import { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import type { SegmentStorage, SegmentStorageFactory } from "./segment-storage";

export class MemorySegmentStorage implements SegmentStorage {
  private chunks: Buffer[] = [];
  /** starts[i] is the segment position of chunks[i]. */
  private starts: number[] = [];
  private size = 0;

  async write(chunks: Buffer[], position: number): Promise<void> {
    if (position !== this.size) throw new Error(`memory segment write at ${position}, but its end is ${this.size}`);
    for (const chunk of chunks) {
      if (chunk.length === 0) continue;
      this.chunks.push(chunk);
      this.starts.push(this.size);
      this.size += chunk.length;
    }
  }

  async read(position: number, length: number): Promise<ChunkedBytes> {
    const end = Math.min(position + length, this.size);
    const parts: Buffer[] = [];
    for (let i = this.chunkAt(position); i < this.chunks.length && this.starts[i] < end; i++) {
      const from = Math.max(position - this.starts[i], 0);
      parts.push(this.chunks[i].subarray(from, Math.min(end - this.starts[i], this.chunks[i].length)));
    }
    return new ChunkedBytes(parts);
  }

  async sync(): Promise<void> {}

  async truncate(size: number): Promise<void> {
    while (this.chunks.length > 0 && this.starts[this.starts.length - 1] >= size) {
      this.chunks.pop();
      this.starts.pop();
    }
    const last = this.chunks.length - 1;
    if (last >= 0) this.chunks[last] = this.chunks[last].subarray(0, size - this.starts[last]);
    this.size = Math.min(this.size, size);
  }

  async close(): Promise<void> {
    this.chunks = [];
    this.starts = [];
    this.size = 0;
  }

  async remove(): Promise<void> {
    await this.close();
  }

  private chunkAt(position: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.starts[mid] <= position) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

export const memorySegmentStorageFactory: SegmentStorageFactory = {
  create: async () => new MemorySegmentStorage(),
};
