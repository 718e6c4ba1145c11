/**
 * Transaction markers: the control batches a transaction coordinator writes into every partition of a transaction
 * when it ends (KIP-98). One record, never compressed, in a batch flagged control and transactional, carrying the
 * producer's id and epoch: its key is a version and the marker's type (abort or commit), its value a version and the
 * coordinator's epoch. Readers skip control batches as records and take the marker as the end of the producer's
 * open transaction in that partition.
 */
import { CONTROL_BATCH, TRANSACTIONAL_BATCH } from "./record-batch";
import { encodePlainBatch, readPlainRecords } from "./plain-records";

export const ControlRecordType = { ABORT: 0, COMMIT: 1 } as const;

export interface EndTransactionMarker {
  producerId: bigint;
  producerEpoch: number;
  committed: boolean;
  coordinatorEpoch: number;
  timestamp: number;
}

const CONTROL_RECORD_VERSION = 0;

/** A whole control batch holding `marker`, its base offset left for the log to assign. */
export function encodeEndTransactionMarker(marker: EndTransactionMarker): Buffer {
  const key = Buffer.alloc(4);
  key.writeInt16BE(CONTROL_RECORD_VERSION, 0);
  key.writeInt16BE(marker.committed ? ControlRecordType.COMMIT : ControlRecordType.ABORT, 2);
  const value = Buffer.alloc(6);
  value.writeInt16BE(CONTROL_RECORD_VERSION, 0);
  value.writeInt32BE(marker.coordinatorEpoch, 2);
  return encodePlainBatch([{ key, value }], {
    timestamp: marker.timestamp,
    attributes: CONTROL_BATCH | TRANSACTIONAL_BATCH,
    producerId: marker.producerId,
    producerEpoch: marker.producerEpoch,
  });
}

/**
 * The type of the control record a whole control batch holds (ControlRecordType; other values are types this reader
 * does not know), or undefined when its first record has no readable control key.
 */
export function controlRecordType(batch: Buffer): number | undefined {
  try {
    const key = readPlainRecords(batch)[0]?.key;
    return key === null || key === undefined || key.length < 4 ? undefined : key.readInt16BE(2);
  } catch {
    return undefined;
  }
}
