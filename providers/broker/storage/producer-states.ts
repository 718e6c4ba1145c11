/**
 * What one partition knows of the idempotent producers writing to it, as Kafka's brokers keep it: per producer id
 * its epoch and the sequences and offsets of its last five batches. Each batch is checked before it is written: a
 * retry of one of those five is answered with the offset it got then and not stored again, a gap in the sequence
 * is OUT_OF_ORDER_SEQUENCE_NUMBER, and an epoch older than the producer's last one is INVALID_PRODUCER_EPOCH.
 * A transaction marker (a control batch, which has no sequence) carries its producer's epoch as the coordinator
 * knows it: a newer one fences the producer's older epoch here, as a new epoch's first batch does.
 * Rebuilt from the log's batch headers when a partition is opened, so a restart forgets nothing the log holds.
 */
import { ApiError, ErrorCode } from "../../kafka-protocol/error-codes";
import { incrementSequence } from "../../kafka-protocol/records/producer-stamp";
import { isControlBatch } from "../../kafka-protocol/records/record-batch";

/** Batches remembered per producer: Kafka's clients have at most five in flight per partition. */
const REMEMBERED_BATCHES = 5;

/** What the checks read of a batch header. */
export interface ProducerBatch {
  attributes: number;
  producerId: bigint;
  producerEpoch: number;
  baseSequence: number;
  lastOffsetDelta: number;
}

interface RememberedBatch {
  firstSequence: number;
  lastSequence: number;
  baseOffset: number;
  lastOffset: number;
}

interface ProducerEntry {
  epoch: number;
  /** Oldest first, at most REMEMBERED_BATCHES. */
  batches: RememberedBatch[];
  /** Wall-clock time of its last batch written (or of the log's loading, for one rebuilt from it). */
  lastAppendMs: number;
}

type Entries = Map<bigint, ProducerEntry>;

export class ProducerStates {
  private readonly entries: Entries = new Map();

  /** Checks for one write to the log; what its batches change is kept once the write succeeded (commit). */
  begin(): ProducerWrite {
    return new ProducerWrite(this.entries);
  }

  /** Takes in a batch read from the log while it is loaded, oldest first. */
  restore(batch: ProducerBatch, baseOffset: number, nowMs: number): void {
    if (batch.producerId < 0n) return;
    const entry = this.entries.get(batch.producerId);
    if (entry !== undefined && batch.producerEpoch < entry.epoch) return;
    this.entries.set(batch.producerId, isControlBatch(batch) ? withMarker(entry, batch, nowMs) : withBatch(entry, batch, baseOffset, nowMs));
  }

  /** Forgets producers whose batches are all gone (deleted by retention), as Kafka does. */
  forgetBefore(logStartOffset: number): void {
    for (const [producerId, entry] of this.entries) {
      const last = entry.batches[entry.batches.length - 1];
      if (last === undefined || last.lastOffset < logStartOffset) this.entries.delete(producerId);
    }
  }

  /** Forgets producers that wrote nothing for `idleMs` (Kafka's producer.id.expiration.ms). */
  expire(nowMs: number, idleMs: number): void {
    for (const [producerId, entry] of this.entries) if (entry.lastAppendMs < nowMs - idleMs) this.entries.delete(producerId);
  }

  get size(): number {
    return this.entries.size;
  }
}

export class ProducerWrite {
  /** Entries changed by this write's batches so far. */
  private readonly pending: Entries = new Map();

  constructor(private readonly entries: Entries) {}

  /**
   * Checks the batches of one append, which land from `nextOffset` on: null when every batch is to be written,
   * else per batch the offset it was written at before (a retry, not to be written again) or null. Throws an
   * ApiError for the whole append, which then changes nothing.
   */
  admit(batches: readonly ProducerBatch[], nextOffset: number): (number | null)[] | null {
    if (batches.every((batch) => batch.producerId < 0n)) return null;
    const changed: Entries = new Map();
    const verdicts: (number | null)[] = [];
    let offset = nextOffset;
    for (const batch of batches) {
      const { producerId } = batch;
      const entry = producerId < 0n ? undefined : (changed.get(producerId) ?? this.pending.get(producerId) ?? this.entries.get(producerId));
      const control = isControlBatch(batch);
      const original = producerId < 0n ? null : control ? checkMarker(entry, batch) : checkBatch(entry, batch);
      verdicts.push(original);
      if (original !== null) continue;
      if (producerId >= 0n) changed.set(producerId, control ? withMarker(entry, batch, 0) : withBatch(entry, batch, offset, 0));
      offset += batch.lastOffsetDelta + 1;
    }
    for (const [producerId, entry] of changed) this.pending.set(producerId, entry);
    return verdicts;
  }

  /** The write reached the log: its batches count from now on. */
  commit(nowMs: number): void {
    for (const [producerId, entry] of this.pending) {
      entry.lastAppendMs = nowMs;
      this.entries.set(producerId, entry);
    }
  }
}

/** The offset a retried batch was written at, or null for a batch that follows on; throws when it does neither. */
function checkBatch(entry: ProducerEntry | undefined, batch: ProducerBatch): number | null {
  // A producer this partition does not know (new, or its batches deleted) may start at any sequence, as in Kafka.
  if (entry === undefined) return null;
  const { producerId, producerEpoch, baseSequence } = batch;
  if (producerEpoch < entry.epoch) {
    throw new ApiError(ErrorCode.INVALID_PRODUCER_EPOCH, `producer ${producerId} writes with epoch ${producerEpoch}, older than its epoch ${entry.epoch} here`);
  }
  if (producerEpoch > entry.epoch) {
    if (baseSequence !== 0) throw new ApiError(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, `producer ${producerId} starts epoch ${producerEpoch} at sequence ${baseSequence}, not 0`);
    return null;
  }
  // Only a marker leaves an entry without batches: the epoch's next batch may go on from any sequence, as a new producer's.
  if (entry.batches.length === 0) return null;
  const lastSequence = incrementSequence(baseSequence, batch.lastOffsetDelta);
  const duplicate = entry.batches.find((known) => known.firstSequence === baseSequence && known.lastSequence === lastSequence);
  if (duplicate !== undefined) return duplicate.baseOffset;
  const last = entry.batches[entry.batches.length - 1].lastSequence;
  if (baseSequence !== incrementSequence(last, 1)) {
    throw new ApiError(ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, `producer ${producerId} sends sequence ${baseSequence}, the next one here is ${incrementSequence(last, 1)}`);
  }
  return null;
}

/** A marker is never a retry (its coordinator writes each once); it may not come from an epoch older than the producer's. */
function checkMarker(entry: ProducerEntry | undefined, batch: ProducerBatch): null {
  if (entry !== undefined && batch.producerEpoch < entry.epoch) {
    throw new ApiError(ErrorCode.INVALID_PRODUCER_EPOCH, `a transaction marker of producer ${batch.producerId} carries epoch ${batch.producerEpoch}, older than its epoch ${entry.epoch} here`);
  }
  return null;
}

/** `entry` after a marker: the same batches under the same epoch (a transactional producer's sequences go on), none under a newer one. */
function withMarker(entry: ProducerEntry | undefined, marker: ProducerBatch, nowMs: number): ProducerEntry {
  const batches = entry !== undefined && entry.epoch === marker.producerEpoch ? entry.batches : [];
  return { epoch: marker.producerEpoch, batches, lastAppendMs: nowMs };
}

/** `entry` (a new one when absent or of an older epoch) with `batch` remembered at `baseOffset`. */
function withBatch(entry: ProducerEntry | undefined, batch: ProducerBatch, baseOffset: number, nowMs: number): ProducerEntry {
  const kept = entry !== undefined && entry.epoch === batch.producerEpoch ? entry.batches.slice(-(REMEMBERED_BATCHES - 1)) : [];
  kept.push({
    firstSequence: batch.baseSequence,
    lastSequence: incrementSequence(batch.baseSequence, batch.lastOffsetDelta),
    baseOffset,
    lastOffset: baseOffset + batch.lastOffsetDelta,
  });
  return { epoch: batch.producerEpoch, batches: kept, lastAppendMs: nowMs };
}
