/** The OffsetStore: a table of committed offsets whose changes are first recorded by a journal. */
import { CommittedOffsetTable, type OffsetChange } from "./committed-offset-table";
import type { CommittedOffset, OffsetCommitEntry, OffsetStore, StoredMembership, TopicPartitionRef } from "./log-store";

/** Records a change durably (file store) or not at all (memory store) before it is applied. */
export interface OffsetJournal {
  record(change: OffsetChange): Promise<void>;
}

export const memoryOnlyJournal: OffsetJournal = { record: async () => undefined };

export class JournaledOffsetStore implements OffsetStore {
  constructor(
    private readonly table: CommittedOffsetTable,
    private readonly journal: OffsetJournal,
    private readonly assertOpen: () => void,
  ) {}

  commit(groupId: string, entries: OffsetCommitEntry[], commitTimestamp: bigint): Promise<void> {
    return this.change({ kind: "commit", groupId, entries: entries.map((entry) => ({ ...entry })), commitTimestamp });
  }

  fetch(groupId: string, topic: string, partition: number): CommittedOffset | undefined {
    this.assertOpen();
    return this.table.fetch(groupId, topic, partition);
  }

  groupOffsets(groupId: string): Map<string, Map<number, CommittedOffset>> {
    this.assertOpen();
    return this.table.groupOffsets(groupId);
  }

  groups(): string[] {
    this.assertOpen();
    return this.table.groups();
  }

  saveGroup(group: StoredMembership): Promise<void> {
    return this.change({ kind: "group", group });
  }

  storedGroups(): StoredMembership[] {
    this.assertOpen();
    return this.table.storedGroups();
  }

  deleteTopic(topic: string): Promise<void> {
    return this.change({ kind: "deleteTopic", topic });
  }

  deleteGroup(groupId: string): Promise<void> {
    return this.change({ kind: "deleteGroup", groupId });
  }

  deleteOffsets(groupId: string, partitions: TopicPartitionRef[]): Promise<void> {
    return this.change({ kind: "deleteOffsets", groupId, partitions: partitions.map(({ topic, partition }) => ({ topic, partition })) });
  }

  private async change(change: OffsetChange): Promise<void> {
    this.assertOpen();
    await this.journal.record(change);
    this.table.applyChange(change);
  }
}
