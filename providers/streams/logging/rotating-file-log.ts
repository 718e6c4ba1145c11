/**
 * An application's own log file (`log.dir`, `log.maxFileSize`): JSON lines in `<log.dir>/<application.id>.log`,
 * written asynchronously, at the runtime logger's level (which may change while it runs), secrets hidden; rotated to
 * `.log.1` when a line would take it past the size limit. Every line also goes to the runtime's logger.
 */
import * as fs from "fs";
import * as path from "path";
import { AppendingFile } from "../../../kernel/log-destination";
import { logLine, type ComponentLogger, type LineLevel, type LogFields } from "../../../kernel/logger";

export function withApplicationLogFile(logger: ComponentLogger, applicationId: string, dir: string, maxFileSize: number): ComponentLogger {
  if (!dir) return logger;
  fs.mkdirSync(dir, { recursive: true });
  const file = new RotatingFile(path.join(dir, `${applicationId}.log`), maxFileSize);
  const base = { app: applicationId };
  const both = (level: LineLevel) => (message: string, fields?: LogFields) => {
    logger[level](message, fields);
    if (logger.isLevelEnabled?.(level) === false) return;
    file.write(logLine(level, message, base, fields));
  };
  return { debug: both("debug"), info: both("info"), warn: both("warn"), error: both("error"), isLevelEnabled: logger.isLevelEnabled?.bind(logger) };
}

/**
 * The current file is renamed to `.1` while it is still open: the lines it has not written yet still go to it,
 * through the open descriptor, and new lines go to a new file of the same name.
 */
class RotatingFile {
  private current: AppendingFile;
  private size: number;

  constructor(private readonly path: string, private readonly maxSize: number) {
    this.current = new AppendingFile(path);
    this.size = this.current.sizeAtOpen;
  }

  write(line: string): void {
    const bytes = Buffer.byteLength(line);
    if (this.maxSize > 0 && this.size > 0 && this.size + bytes > this.maxSize) this.rotate();
    this.current.write(line);
    this.size += bytes;
  }

  private rotate(): void {
    fs.renameSync(this.path, `${this.path}.1`);
    this.current.end();
    this.current = new AppendingFile(this.path);
    this.size = 0;
  }
}
