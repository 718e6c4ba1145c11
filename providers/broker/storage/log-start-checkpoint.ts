/**
 * Where a partition keeps the log start offset DeleteRecords moved it to, which may lie inside its first segment:
 * `log-start-offset` beside the segment files (written atomically, temp file + rename), or nowhere in memory.
 */
import { promises as fs } from "node:fs";
import path from "node:path";

export interface LogStartCheckpoint {
  save(offset: number): Promise<void>;
}

export const memoryLogStartCheckpoint: LogStartCheckpoint = { save: async () => undefined };

const FILE_NAME = "log-start-offset";

export class FileLogStartCheckpoint implements LogStartCheckpoint {
  private readonly file: string;

  constructor(partitionDir: string) {
    this.file = path.join(partitionDir, FILE_NAME);
  }

  /** The offset saved last; 0 when none was. */
  async load(): Promise<number> {
    let text: string;
    try {
      text = await fs.readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
      throw error;
    }
    const offset = Number(text.trim());
    if (!Number.isSafeInteger(offset) || offset < 0) throw new Error(`${this.file} holds no offset: ${JSON.stringify(text)}`);
    return offset;
  }

  async save(offset: number): Promise<void> {
    const temp = `${this.file}.tmp`;
    await fs.writeFile(temp, String(offset));
    await fs.rename(temp, this.file);
  }
}
