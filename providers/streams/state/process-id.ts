/**
 * The process id of an application's state directory (Kafka Streams' `kafka-streams-process-metadata`): a UUID
 * made the first time and kept in `<state.dir>/<application.id>/`, so that a restart on the same state finds it
 * again. Under exactly_once_v2 it names the thread's transactional id, so the restarted instance's producer fences
 * the crashed one's and aborts its open transaction at once, instead of every reader waiting for its timeout.
 */
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";

export const PROCESS_FILE_NAME = "sluice-process-metadata";

/** The state directory's process id, made and kept on first use; a file that cannot be read is made again. */
export async function processIdOf(stateDir: string, applicationId: string): Promise<string> {
  const directory = join(stateDir, applicationId);
  const file = join(directory, PROCESS_FILE_NAME);
  try {
    const { processId } = JSON.parse(await readFile(file, "utf8")) as { processId?: unknown };
    if (typeof processId === "string" && processId !== "") return processId;
  } catch {
    // Missing or unreadable: a new id below.
  }
  const processId = randomUUID();
  await mkdir(directory, { recursive: true });
  const temporary = `${file}.tmp`;
  await writeFile(temporary, JSON.stringify({ processId }), { mode: 0o600 });
  await rename(temporary, file);
  return processId;
}
