import type { StoreType } from "../../../kernel/contracts/streams/stores";

/**
 * The task's checkpoint, stored in the same database (and written in the same batch) as the stores' data:
 * what the task has applied, so a restart with intact local state resumes exactly there.
 */

/** Kafka offsets as decimal strings, as kafkajs carries them. */
export interface Checkpoint {
  /** `topic:partition` → the next input offset to consume. */
  inputPositions: Record<string, string>;
  /** store name → offset of the last changelog record the store's committed data includes. */
  changelogPositions: Record<string, string>;
  /** store name → who owned the changelog partition at that offset (see kafka/changelog/changelog-fence), when known. */
  changelogWriters: Record<string, string>;
}

/** What each store needs to resume besides its data. */
export interface StoreCheckpoint {
  /** The type the store's data is laid out for; absent in checkpoints written before it was recorded. */
  type?: StoreType;
  entries: number;
  /** Window and session stores: the latest window start / session end written. */
  streamTime: number;
}

export interface StoredCheckpoint extends Checkpoint {
  stores: Record<string, StoreCheckpoint>;
}

export function emptyCheckpoint(): StoredCheckpoint {
  return { inputPositions: {}, changelogPositions: {}, changelogWriters: {}, stores: {} };
}

export function encodeCheckpoint(checkpoint: StoredCheckpoint): Buffer {
  return Buffer.from(JSON.stringify(checkpoint), "utf8");
}

export function decodeCheckpoint(bytes: Buffer | undefined): StoredCheckpoint {
  if (bytes === undefined) return emptyCheckpoint();
  const parsed = JSON.parse(bytes.toString("utf8")) as Partial<StoredCheckpoint>;
  return {
    inputPositions: { ...parsed.inputPositions },
    changelogPositions: { ...parsed.changelogPositions },
    changelogWriters: { ...parsed.changelogWriters },
    stores: { ...parsed.stores },
  };
}
