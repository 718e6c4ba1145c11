/**
 * Ends a transaction where its data lies: a marker (commit or abort) in every partition it wrote to, which closes it
 * there (the partition's last stable offset moves on; an aborted one's records are listed for read_committed
 * readers to skip), and, on commit, its groups' offsets made the committed ones. A partition deleted since it was
 * added is passed over. Writing a marker twice (a restart that finishes a transaction again) changes nothing.
 */
import { encodeEndTransactionMarker } from "../../kafka-protocol/records/control-batch";
import type { LogStore, OffsetCommitEntry } from "../storage/log-store";
import type { TransactionMetadata } from "./transaction-metadata";

/** Single node: the coordinator's epoch never changes. */
const COORDINATOR_EPOCH = 0;

export async function writeMarkers(store: LogStore, metadata: TransactionMetadata, committed: boolean): Promise<void> {
  const marker = encodeEndTransactionMarker({
    producerId: metadata.producerId,
    producerEpoch: metadata.producerEpoch,
    committed,
    coordinatorEpoch: COORDINATOR_EPOCH,
    timestamp: Date.now(),
  });
  const appends: Promise<unknown>[] = [];
  for (const [topic, partitions] of metadata.partitions) {
    for (const partition of partitions) {
      const log = store.partition(topic, partition);
      if (log !== undefined) appends.push(log.append(marker));
    }
  }
  await Promise.all(appends);
}

export async function commitGroupOffsets(store: LogStore, metadata: TransactionMetadata): Promise<void> {
  for (const [groupId, topics] of metadata.groups) {
    const entries: OffsetCommitEntry[] = [];
    for (const [topic, partitions] of topics) {
      for (const [partition, { offset, metadata: text }] of partitions) {
        if (store.partition(topic, partition) !== undefined) entries.push({ topic, partition, offset, metadata: text });
      }
    }
    if (entries.length > 0) await store.offsets.commit(groupId, entries, BigInt(Date.now()));
  }
}
