/**
 * Deletes the records of repartition topics the application has committed past, as Kafka Streams does: after a
 * commit, at most once every `repartition.purge.interval.ms`, DeleteRecords up to each committed offset of a
 * repartition partition. Their records are the application's own, read by nobody else once committed; user topics
 * and changelogs are never touched. One purge at a time; a failed one (a cluster without the Delete ACL on the
 * repartition topics) is logged and the next one tries again.
 */
import type { ClusterAdmin, TopicPartitionOffset } from "../../../kafka-client";
import type { ComponentLogger } from "../../../../kernel/logger";

export interface RepartitionPurgeOptions {
  admin: ClusterAdmin;
  repartitionTopics: ReadonlySet<string>;
  intervalMs: number;
  logger: ComponentLogger;
}

export class RepartitionPurge {
  /** Committed offsets not purged yet, by topic, then partition. */
  private readonly due = new Map<string, Map<number, number>>();
  private lastPurgeMs = Date.now();
  private running?: Promise<void>;

  constructor(private readonly options: RepartitionPurgeOptions) {}

  /** The group committed `offsets`: those of repartition partitions are purged up to once the interval has passed. */
  committed(offsets: readonly TopicPartitionOffset[]): void {
    for (const { topic, partition, offset } of offsets) {
      if (!this.options.repartitionTopics.has(topic)) continue;
      let partitions = this.due.get(topic);
      if (partitions === undefined) this.due.set(topic, (partitions = new Map()));
      partitions.set(partition, offset);
    }
    const now = Date.now();
    if (this.running !== undefined || this.due.size === 0 || now - this.lastPurgeMs < this.options.intervalMs) return;
    this.lastPurgeMs = now;
    const purging = new Map(this.due);
    this.due.clear();
    this.running = this.purge(purging).finally(() => (this.running = undefined));
  }

  /** Waits for the purge under way, if any. */
  async close(): Promise<void> {
    await this.running;
  }

  private async purge(due: Map<string, Map<number, number>>): Promise<void> {
    const { admin, logger } = this.options;
    try {
      for (const [topic, partitions] of due) {
        await admin.deleteRecords(topic, partitions);
        logger.debug("repartition records purged", { topic, before: Object.fromEntries(partitions) });
      }
    } catch (error) {
      logger.warn("purging consumed repartition records failed; the next commit after repartition.purge.interval.ms tries again", { error: String(error) });
      for (const [topic, partitions] of due) {
        const pending = this.due.get(topic) ?? new Map<number, number>();
        for (const [partition, offset] of partitions) if (!pending.has(partition)) pending.set(partition, offset);
        this.due.set(topic, pending);
      }
    }
  }
}
