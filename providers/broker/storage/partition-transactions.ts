/**
 * What one partition knows of the transactions written into it, as Kafka's brokers keep it: per producer the first
 * offset of its open transaction (the earliest of them is the last stable offset, below which read_committed
 * consumers read), and the aborted transactions' offset ranges (Kafka's aborted transaction index), which Fetch hands
 * to those consumers so they skip the aborted records. A transaction opens with its producer's first transactional
 * batch here and ends with the marker (a control batch) its coordinator writes. Rebuilt from the log when a
 * partition is opened.
 */
import { ControlRecordType } from "../../kafka-protocol/records/control-batch";

/** What tracking reads of a batch written to the log. */
export interface TransactionalBatch {
  producerId: bigint;
  baseOffset: number;
  transactional: boolean;
  /** For a control batch, its record's type (ControlRecordType); absent for data. */
  controlType?: number;
}

export interface AbortedTransaction {
  producerId: bigint;
  firstOffset: number;
  /** The offset of the abort marker. */
  lastOffset: number;
}

export class PartitionTransactions {
  /** Producer id → first offset of its open transaction. */
  private readonly open = new Map<bigint, number>();
  /** In marker order, so by last offset. */
  private aborted: AbortedTransaction[] = [];

  track(batch: TransactionalBatch): void {
    if (!batch.transactional) return;
    const { producerId, baseOffset, controlType } = batch;
    if (controlType === undefined) {
      if (!this.open.has(producerId)) this.open.set(producerId, baseOffset);
      return;
    }
    const firstOffset = this.open.get(producerId);
    this.open.delete(producerId);
    // A marker ends a transaction even when it wrote nothing here (a partition added but never written to).
    if (controlType === ControlRecordType.ABORT && firstOffset !== undefined) this.aborted.push({ producerId, firstOffset, lastOffset: baseOffset });
  }

  /** The first offset of the earliest open transaction, or undefined when none is open. */
  firstUnstableOffset(): number | undefined {
    let first: number | undefined;
    for (const offset of this.open.values()) if (first === undefined || offset < first) first = offset;
    return first;
  }

  /** Whether `producerId` has a transaction open here. */
  isOpen(producerId: bigint): boolean {
    return this.open.has(producerId);
  }

  /** The aborted transactions that overlap [from, to): those a reader of that range must skip records of. */
  abortedBetween(from: number, to: number): AbortedTransaction[] {
    const overlapping: AbortedTransaction[] = [];
    for (let i = this.firstEndingAtOrAfter(from); i < this.aborted.length; i++) {
      const aborted = this.aborted[i];
      if (aborted.firstOffset < to) overlapping.push(aborted);
    }
    return overlapping;
  }

  /** Forgets aborted transactions wholly below the log start (retention deleted their records). */
  forgetBefore(logStartOffset: number): void {
    const from = this.firstEndingAtOrAfter(logStartOffset);
    if (from > 0) this.aborted = this.aborted.slice(from);
  }

  private firstEndingAtOrAfter(offset: number): number {
    let low = 0;
    let high = this.aborted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.aborted[mid].lastOffset >= offset) high = mid;
      else low = mid + 1;
    }
    return low;
  }
}
