/**
 * The file store's producer id reservations: `<dataDir>/producer-ids` holds the first id not yet reserved, written
 * atomically (temp file + rename) before the ids below it are given.
 */
import { promises as fs } from "node:fs";
import path from "node:path";

const FILE_NAME = "producer-ids";

export class ProducerIdFile {
  private readonly filePath: string;

  constructor(dataDir: string) {
    this.filePath = path.join(dataDir, FILE_NAME);
  }

  /** Reserves `count` ids and resolves with the first. */
  async reserve(count: bigint): Promise<bigint> {
    const first = await this.firstUnreserved();
    const temp = `${this.filePath}.tmp`;
    await fs.writeFile(temp, `${first + count}\n`);
    await fs.rename(temp, this.filePath);
    return first;
  }

  private async firstUnreserved(): Promise<bigint> {
    let text: string;
    try {
      text = await fs.readFile(this.filePath, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0n;
      throw error;
    }
    if (!/^\d+\s*$/.test(text)) throw new Error(`${this.filePath} should hold the next producer id, holds '${text.trim()}'`);
    return BigInt(text.trim());
  }
}
