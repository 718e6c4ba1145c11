/**
 * The log start and end offsets of topics' partitions, asked once per topic however many partitions are read:
 * one reconciliation's stale-state checks and restore plans, or one offsets or stores answer.
 */
import type { ClusterAdmin, PartitionEnds } from "../../../kafka-client";

export class TopicEnds {
  private readonly byTopic = new Map<string, Promise<Map<number, PartitionEnds>>>();

  constructor(private readonly admin: ClusterAdmin) {}

  /** Undefined for a partition the topic does not have. */
  async of(topic: string, partition: number): Promise<PartitionEnds | undefined> {
    let ends = this.byTopic.get(topic);
    if (!ends) {
      ends = this.admin.offsetsOf(topic);
      this.byTopic.set(topic, ends);
    }
    return (await ends).get(partition);
  }
}

