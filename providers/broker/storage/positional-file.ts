/** A file written and read at explicit positions: a log segment, or the committed-offsets log. */
import { constants, promises as fs } from "node:fs";
import path from "node:path";
import { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import type { ReadBuffers } from "./read-buffers";
import type { SegmentStorage } from "./segment-storage";

export class PositionalFile implements SegmentStorage {
  /** Whether the directory entry of the file was synced: the file may be new, and its data is lost without it. */
  private entrySynced = false;

  private constructor(
    readonly filePath: string,
    private readonly handle: fs.FileHandle,
  ) {}

  /** Opens (creating when missing) the file without truncating it. */
  static async open(filePath: string): Promise<PositionalFile> {
    return new PositionalFile(filePath, await fs.open(filePath, constants.O_RDWR | constants.O_CREAT));
  }

  async fileSize(): Promise<number> {
    return (await this.handle.stat()).size;
  }

  async lastModifiedMs(): Promise<number> {
    return (await this.handle.stat()).mtimeMs;
  }

  async write(chunks: Buffer[], position: number): Promise<void> {
    let remaining = chunks;
    let at = position;
    while (remaining.length > 0) {
      const { bytesWritten } = await this.handle.writev(remaining, at);
      at += bytesWritten;
      remaining = dropBytes(remaining, bytesWritten);
    }
  }

  async read(position: number, length: number, buffers?: ReadBuffers): Promise<ChunkedBytes> {
    return ChunkedBytes.of(await this.readInto(buffers ? buffers.take(length) : Buffer.allocUnsafe(length), position));
  }

  readBytes(position: number, length: number): Promise<Buffer> {
    return this.readInto(Buffer.allocUnsafe(length), position);
  }

  /** Fills `buffer` with the bytes at `position` on. */
  private async readInto(buffer: Buffer, position: number): Promise<Buffer> {
    const length = buffer.length;
    let filled = 0;
    while (filled < length) {
      const { bytesRead } = await this.handle.read(buffer, filled, length - filled, position + filled);
      if (bytesRead === 0) throw new Error(`${this.filePath} ends at ${position + filled}, expected ${position + length} bytes`);
      filled += bytesRead;
    }
    return buffer;
  }

  async sync(): Promise<void> {
    await this.handle.sync();
    if (this.entrySynced) return;
    const directory = await fs.open(path.dirname(this.filePath), constants.O_RDONLY);
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
    this.entrySynced = true;
  }

  async truncate(size: number): Promise<void> {
    await this.handle.truncate(size);
  }

  async close(): Promise<void> {
    await this.handle.close();
  }

  async remove(): Promise<void> {
    await this.handle.close();
    await fs.rm(this.filePath, { force: true });
  }
}

/** `chunks` without their first `count` bytes (after a partial write). */
function dropBytes(chunks: Buffer[], count: number): Buffer[] {
  let skip = count;
  let i = 0;
  while (i < chunks.length && skip >= chunks[i].length) skip -= chunks[i++].length;
  const rest = chunks.slice(i);
  if (rest.length > 0 && skip > 0) rest[0] = rest[0].subarray(skip);
  return rest;
}
