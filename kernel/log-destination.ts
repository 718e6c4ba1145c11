/**
 * Where log lines go: stderr and log files, each written asynchronously (sonic-boom, pino's writer), so a log
 * line never blocks the event loop on a slow disk or pipe. Every open destination is flushed before the
 * process exits: at once by `flushLogsSync` (a fatal error, a second signal, and Node's 'exit' event whatever
 * caused it), or after the writes in flight with `flushLogs` (a clean stop).
 */
import fs from "node:fs";
import SonicBoom from "sonic-boom";

/** Lines buffered beyond this while the destination cannot keep up are dropped rather than held in memory. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;
/** A clean stop waits at most this long for a destination that does not drain (a reader that stopped reading). */
const FLUSH_TIMEOUT_MS = 2_000;

const open = new Set<SonicBoom>();
let stderr: SonicBoom | undefined;

function track(destination: SonicBoom): SonicBoom {
  if (open.size === 0) process.on("exit", flushLogsSync);
  open.add(destination);
  // There is nowhere left to report a failing log destination; its lines are lost, the process goes on.
  destination.on("error", () => undefined);
  return destination;
}

function untrack(destination: SonicBoom): void {
  open.delete(destination);
  if (open.size === 0) process.off("exit", flushLogsSync);
}

/** Writes a line to the process's stderr. */
export function writeToStderr(line: string): void {
  stderr ??= track(new SonicBoom({ fd: 2, sync: false, maxLength: MAX_BUFFERED_BYTES }));
  stderr.write(line);
}

/** A file opened for appending now (so an unwritable path fails here), written asynchronously. */
export class AppendingFile {
  private readonly destination: SonicBoom;
  /** Bytes in the file when it was opened. */
  readonly sizeAtOpen: number;

  constructor(readonly path: string) {
    const fd = fs.openSync(path, "a");
    this.sizeAtOpen = fs.fstatSync(fd).size;
    this.destination = track(new SonicBoom({ fd, sync: false, maxLength: MAX_BUFFERED_BYTES }));
  }

  write(line: string): void {
    this.destination.write(line);
  }

  /** Writes out what is buffered, then closes the file. */
  end(): void {
    this.destination.once("close", () => untrack(this.destination));
    this.destination.end();
  }
}

/** Writes out every buffered line synchronously, before the process exits. */
export function flushLogsSync(): void {
  for (const destination of open) {
    try {
      destination.flushSync();
    } catch {
      // Not writable any more (a closed pipe): nothing else can be done with its lines.
    }
  }
}

/** Resolves once every destination has written what was buffered (or after a bounded wait). */
export async function flushLogs(): Promise<void> {
  const flushed = [...open].map((destination) => new Promise<void>((resolve) => destination.flush(() => resolve())));
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS)));
  await Promise.race([Promise.all(flushed), timeout]);
  clearTimeout(timer);
}
