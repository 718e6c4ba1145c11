/** Reading a file a configuration key names: a missing or unreadable one stops startup naming the file and the key. */
import fs from "node:fs";
import { StartupError } from "../errors";

export function readConfiguredFile(file: string, key: string): Buffer {
  try {
    return fs.readFileSync(file);
  } catch (error) {
    throw new StartupError(`Cannot read ${file} (${key}): ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, { cause: error });
  }
}

export function readLines(file: string, key: string): string[] {
  return readConfiguredFile(file, key).toString("utf8").split(/\r?\n/);
}
