/**
 * GET /api/v1/streams/{id}/stores (beyond docs/api.md): per store and local partition, the changelog position, the
 * changelog's end, the lag, whether the partition is queryable or restoring, and the restore progress — so an
 * operator sees when a restarted instance can answer queries again.
 */
import type { ApplicationHandle, StorePartitionStatus } from "sluice";

export async function storesJson(application: ApplicationHandle): Promise<Record<string, unknown>> {
  const statuses = await application.storesStatus();
  const stores = application.storeNames().map((name) => {
    const handle = application.store(name);
    const queryablePartitions = new Set(handle?.queryable() ? handle.localPartitions() : []);
    const partitions = statuses
      .filter((status) => status.store === name)
      .sort((a, b) => a.partition - b.partition)
      .map((status) => partitionJson(status, queryablePartitions.has(status.partition) && !status.restoring));
    return { name, type: handle?.type ?? null, partitions };
  });
  return { id: application.id, stores };
}

function partitionJson(status: StorePartitionStatus, queryable: boolean): Record<string, unknown> {
  return {
    partition: status.partition,
    changelog_topic: status.changelogTopic,
    changelog_position: status.changelogPosition,
    log_end_offset: status.logEndOffset,
    lag: status.lag,
    queryable,
    restoring: status.restoring,
    standby: status.standby,
    restore: {
      records_restored: status.restoredRecords,
      // What is left to restore is the changelog lag, so the total is what was restored plus that.
      records_total: status.restoredRecords + (status.restoring ? status.lag : 0),
      rate: status.restoreRate ?? 0,
    },
  };
}
