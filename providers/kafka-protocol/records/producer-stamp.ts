/**
 * The idempotent producer's fields of a record batch: producer id, epoch and base sequence, and the sequence
 * arithmetic both sides of the protocol share (sequences wrap from 2^31 - 1 to 0, as Kafka's do).
 */
import { crc32c } from "./crc32c";
import { BatchField } from "./record-batch";

export interface ProducerStamp {
  producerId: bigint;
  producerEpoch: number;
  /** Sequence of the batch's first record. */
  baseSequence: number;
  /** Written by a transactional producer: the batch belongs to its open transaction (the attributes' bit 4). */
  transactional?: boolean;
}

/** A batch written by no idempotent producer: producer id and epoch -1, no sequence. */
export const NO_PRODUCER: ProducerStamp = { producerId: -1n, producerEpoch: -1, baseSequence: -1 };

const SEQUENCE_MODULUS = 2 ** 31;

/** The sequence `count` records after `sequence`. */
export function incrementSequence(sequence: number, count: number): number {
  return (sequence + count) % SEQUENCE_MODULUS;
}

/** Writes the producer fields into a whole batch and updates its CRC (which covers them). */
export function stampProducer(batch: Buffer, stamp: ProducerStamp): void {
  batch.writeBigInt64BE(stamp.producerId, BatchField.producerId);
  batch.writeInt16BE(stamp.producerEpoch, BatchField.producerEpoch);
  batch.writeInt32BE(stamp.baseSequence, BatchField.baseSequence);
  batch.writeUInt32BE(crc32c(batch.subarray(BatchField.attributes)), BatchField.crc);
}
