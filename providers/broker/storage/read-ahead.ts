/**
 * Segment reads started before a consumer asks for them: once a fetch has its bytes, the batches after them are
 * read from the file while the consumer works through the last ones, so that its next fetch finds them read.
 * What is held is bounded in bytes; a read nobody took for a while makes room for new ones.
 */
import type { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import type { ReadBuffers } from "./read-buffers";
import type { SegmentStorage } from "./segment-storage";

interface Ahead {
  readonly storage: SegmentStorage;
  readonly position: number;
  readonly length: number;
  readonly startedMs: number;
  /** null when the read failed: the fetch then reads again and meets the error itself. */
  readonly bytes: Promise<ChunkedBytes | null>;
}

export class ReadAhead {
  private readonly byStorage = new Map<SegmentStorage, Map<number, Ahead>>();
  /** Oldest first. */
  private readonly started = new Set<Ahead>();
  private heldBytes = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly staleAfterMs: number,
    private readonly buffers?: ReadBuffers,
  ) {}

  /**
   * The bytes `[position, position + length)` of `storage` when a read of exactly them was started (null if it
   * failed), else undefined. A read is handed out once.
   */
  take(storage: SegmentStorage, position: number, length: number): Promise<ChunkedBytes | null> | undefined {
    const ahead = this.byStorage.get(storage)?.get(position);
    if (ahead === undefined) return undefined;
    this.drop(ahead);
    return ahead.length === length ? ahead.bytes : undefined;
  }

  /** Starts reading `[position, position + length)` of `storage`, unless that is under way or there is no room. */
  start(storage: SegmentStorage, position: number, length: number, nowMs: number): void {
    if (this.byStorage.get(storage)?.has(position)) return;
    this.dropStale(nowMs);
    if (this.heldBytes + length > this.maxBytes) return;
    // Looked up after dropStale: dropping this storage's last stale read removes its map.
    const reads = this.byStorage.get(storage);
    const ahead: Ahead = { storage, position, length, startedMs: nowMs, bytes: storage.read(position, length, this.buffers).catch(() => null) };
    if (reads) reads.set(position, ahead);
    else this.byStorage.set(storage, new Map([[position, ahead]]));
    this.started.add(ahead);
    this.heldBytes += length;
  }

  private dropStale(nowMs: number): void {
    for (const ahead of this.started) {
      if (ahead.startedMs > nowMs - this.staleAfterMs) return;
      this.drop(ahead);
    }
  }

  private drop(ahead: Ahead): void {
    this.started.delete(ahead);
    this.heldBytes -= ahead.length;
    const reads = this.byStorage.get(ahead.storage)!;
    reads.delete(ahead.position);
    if (reads.size === 0) this.byStorage.delete(ahead.storage);
  }
}
