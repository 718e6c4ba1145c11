/**
 * The committed-offsets journal of the file store, which also keeps groups' membership: one JSON line per
 * change, appended through a coalescing write queue (durable once the write completes), replayed on open, tolerant
 * of a torn last line, and compacted into a snapshot (temp file + rename) when it has grown well past the live data.
 */
import { promises as fs } from "node:fs";
import type { CommittedOffsetTable, OffsetChange } from "./committed-offset-table";
import { isStoredConsumerGroup, type StoredConsumerGroup, type StoredGroup } from "./log-store";
import type { OffsetJournal } from "./journaled-offset-store";
import { PositionalFile } from "./positional-file";
import { SerialWriteQueue, type WriteOutcome } from "./serial-write-queue";
import type { ComponentLogger } from "../../../kernel/logger";
const MIN_COMPACTION_BYTES = 1 << 20;
const GROWTH_BEFORE_COMPACTION = 4;

type JournalLine =
  | { commit: { group: string; ts: string; entries: [string, number, string, string | null][] } }
  | { deleteTopic: string }
  | { deleteGroup: string }
  | { deleteOffsets: { group: string; partitions: [string, number][] } }
  | { groupMetadata: GroupLine }
  | { consumerGroup: StoredConsumerGroup };

/** A StoredGroup with its byte fields in base64. */
type GroupLine = Omit<StoredGroup, "members"> & { members: (Omit<StoredGroup["members"][number], "subscription" | "assignment"> & { subscription: string; assignment: string })[] };

function groupLineOf(group: StoredGroup): GroupLine {
  return {
    ...group,
    members: group.members.map((m) => ({ ...m, subscription: m.subscription.toString("base64"), assignment: m.assignment.toString("base64") })),
  };
}

function storedGroupOf(line: GroupLine): StoredGroup {
  return {
    ...line,
    members: line.members.map((m) => ({ ...m, subscription: Buffer.from(m.subscription, "base64"), assignment: Buffer.from(m.assignment, "base64") })),
  };
}

function encodeLine(change: OffsetChange): string {
  return `${JSON.stringify(lineOf(change))}\n`;
}

function lineOf(change: OffsetChange): JournalLine {
  switch (change.kind) {
    case "commit":
      return {
        commit: {
          group: change.groupId,
          ts: String(change.commitTimestamp),
          entries: change.entries.map((e) => [e.topic, e.partition, String(e.offset), e.metadata]),
        },
      };
    case "deleteTopic":
      return { deleteTopic: change.topic };
    case "deleteGroup":
      return { deleteGroup: change.groupId };
    case "deleteOffsets":
      return { deleteOffsets: { group: change.groupId, partitions: change.partitions.map(({ topic, partition }) => [topic, partition]) } };
    case "group":
      return isStoredConsumerGroup(change.group) ? { consumerGroup: change.group } : { groupMetadata: groupLineOf(change.group) };
  }
}

function decodeLine(text: string): OffsetChange {
  const line = JSON.parse(text) as JournalLine;
  if ("deleteTopic" in line) return { kind: "deleteTopic", topic: line.deleteTopic };
  if ("deleteGroup" in line) return { kind: "deleteGroup", groupId: line.deleteGroup };
  if ("groupMetadata" in line) return { kind: "group", group: storedGroupOf(line.groupMetadata) };
  if ("consumerGroup" in line) return { kind: "group", group: line.consumerGroup };
  if ("deleteOffsets" in line) {
    return { kind: "deleteOffsets", groupId: line.deleteOffsets.group, partitions: line.deleteOffsets.partitions.map(([topic, partition]) => ({ topic, partition })) };
  }
  return {
    kind: "commit",
    groupId: line.commit.group,
    commitTimestamp: BigInt(line.commit.ts),
    entries: line.commit.entries.map(([topic, partition, offset, metadata]) => ({ topic, partition, offset: BigInt(offset), metadata })),
  };
}

export class FileOffsetJournal implements OffsetJournal {
  private readonly queue = new SerialWriteQueue<string, void>((lines) => this.write(lines));
  private compactedSize: number;

  private constructor(
    private readonly filePath: string,
    private file: PositionalFile,
    private size: number,
    private readonly table: CommittedOffsetTable,
    private readonly logger: ComponentLogger,
  ) {
    this.compactedSize = size;
  }

  /** Replays the journal at `filePath` into `table`, cutting off a torn or unreadable tail. */
  static async open(filePath: string, table: CommittedOffsetTable, logger: ComponentLogger): Promise<FileOffsetJournal> {
    const file = await PositionalFile.open(filePath);
    const content = await file.readBytes(0, await file.fileSize());
    let validSize = 0;
    while (validSize < content.length) {
      const newline = content.indexOf(0x0a, validSize);
      const problem = newline < 0 ? "unterminated last line" : replayLine(content.toString("utf8", validSize, newline), table);
      if (problem !== undefined) {
        logger.warn("truncating torn or corrupt tail of committed-offsets journal", {
          file: filePath,
          problem,
          validBytes: validSize,
          discardedBytes: content.length - validSize,
        });
        await file.truncate(validSize);
        break;
      }
      validSize = newline + 1;
    }
    return new FileOffsetJournal(filePath, file, validSize, table, logger);
  }

  record(change: OffsetChange): Promise<void> {
    return this.queue.push(encodeLine(change));
  }

  close(): Promise<void> {
    return this.queue.exclusive(() => this.file.close());
  }

  private async write(lines: string[]): Promise<WriteOutcome<void>[]> {
    if (this.size > MIN_COMPACTION_BYTES && this.size > GROWTH_BEFORE_COMPACTION * this.compactedSize) await this.compact();
    const bytes = Buffer.from(lines.join(""), "utf8");
    try {
      await this.file.write([bytes], this.size);
    } catch (error) {
      await this.file.truncate(this.size);
      throw error;
    }
    this.size += bytes.length;
    return lines.map(() => ({ ok: true, value: undefined }));
  }

  /** Rewrites the journal as a snapshot of the table (which holds every change recorded so far). */
  private async compact(): Promise<void> {
    const snapshot = Buffer.from(this.table.snapshot().map(encodeLine).join(""), "utf8");
    const tempPath = `${this.filePath}.tmp`;
    await fs.writeFile(tempPath, snapshot);
    await fs.rename(tempPath, this.filePath);
    await this.file.close();
    this.file = await PositionalFile.open(this.filePath);
    this.logger.debug("compacted committed-offsets journal", { file: this.filePath, from: this.size, to: snapshot.length });
    this.size = this.compactedSize = snapshot.length;
  }
}

/** Applies one journal line; returns why it could not be read, if so. */
function replayLine(text: string, table: CommittedOffsetTable): string | undefined {
  try {
    table.applyChange(decodeLine(text));
    return undefined;
  } catch (error) {
    return `unreadable line: ${String(error)}`;
  }
}
