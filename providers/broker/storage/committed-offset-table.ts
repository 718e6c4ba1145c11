/** Committed consumer-group offsets in memory (group → topic → partition → offset), and groups' membership. */
import type { CommittedOffset, OffsetCommitEntry, StoredMembership, TopicPartitionRef } from "./log-store";

/** A change to the table, as the offset journal records it. */
export type OffsetChange =
  | { kind: "commit"; groupId: string; entries: OffsetCommitEntry[]; commitTimestamp: bigint }
  | { kind: "deleteTopic"; topic: string }
  | { kind: "deleteGroup"; groupId: string }
  | { kind: "deleteOffsets"; groupId: string; partitions: TopicPartitionRef[] }
  | { kind: "group"; group: StoredMembership };

export class CommittedOffsetTable {
  private readonly byGroup = new Map<string, Map<string, Map<number, CommittedOffset>>>();
  /** Kept apart from the offsets: a group's membership outlives its last offset, as in Kafka. */
  private readonly membership = new Map<string, StoredMembership>();

  applyChange(change: OffsetChange): void {
    if (change.kind === "commit") this.apply(change.groupId, change.entries, change.commitTimestamp);
    else if (change.kind === "deleteTopic") this.deleteTopic(change.topic);
    else if (change.kind === "deleteOffsets") this.deleteOffsets(change.groupId, change.partitions);
    else if (change.kind === "group") this.membership.set(change.group.groupId, change.group);
    else {
      this.byGroup.delete(change.groupId);
      this.membership.delete(change.groupId);
    }
  }

  /** The whole table as changes, one per group membership and one per offset: replaying them rebuilds it. */
  snapshot(): OffsetChange[] {
    const changes: OffsetChange[] = [...this.membership.values()].map((group) => ({ kind: "group", group }));
    for (const [groupId, topics] of this.byGroup) {
      for (const [topic, partitions] of topics) {
        for (const [partition, { offset, metadata, commitTimestamp }] of partitions) {
          changes.push({ kind: "commit", groupId, entries: [{ topic, partition, offset, metadata }], commitTimestamp });
        }
      }
    }
    return changes;
  }

  private apply(groupId: string, entries: OffsetCommitEntry[], commitTimestamp: bigint): void {
    let topics = this.byGroup.get(groupId);
    if (topics === undefined) this.byGroup.set(groupId, (topics = new Map()));
    for (const entry of entries) {
      let partitions = topics.get(entry.topic);
      if (partitions === undefined) topics.set(entry.topic, (partitions = new Map()));
      partitions.set(entry.partition, { offset: entry.offset, metadata: entry.metadata, commitTimestamp });
    }
  }

  fetch(groupId: string, topic: string, partition: number): CommittedOffset | undefined {
    return this.byGroup.get(groupId)?.get(topic)?.get(partition);
  }

  /** A copy, so callers cannot change the table. */
  groupOffsets(groupId: string): Map<string, Map<number, CommittedOffset>> {
    const topics = this.byGroup.get(groupId);
    return new Map([...(topics ?? [])].map(([topic, partitions]) => [topic, new Map(partitions)]));
  }

  groups(): string[] {
    return [...new Set([...this.byGroup.keys(), ...this.membership.keys()])];
  }

  storedGroups(): StoredMembership[] {
    return [...this.membership.values()];
  }

  /** A group left without offsets is forgotten, as when its last topic is deleted. */
  private deleteOffsets(groupId: string, partitions: TopicPartitionRef[]): void {
    const topics = this.byGroup.get(groupId);
    if (topics === undefined) return;
    for (const { topic, partition } of partitions) {
      const offsets = topics.get(topic);
      offsets?.delete(partition);
      if (offsets?.size === 0) topics.delete(topic);
    }
    if (topics.size === 0) this.byGroup.delete(groupId);
  }

  private deleteTopic(topic: string): void {
    for (const [groupId, topics] of this.byGroup) {
      topics.delete(topic);
      if (topics.size === 0) this.byGroup.delete(groupId);
    }
  }
}
