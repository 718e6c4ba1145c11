/**
 * Structured logging: one JSON object per line — `time`, `level`, `msg`, then the fields — written asynchronously to
 * stderr (kernel/log-destination.ts), quiet below a level that can change while the process runs, with secrets hidden.
 */
import { writeToStderr } from "./log-destination";
import { redactSecrets } from "./secrets";

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
/** The level of a line (every level but `silent`). */
export type LineLevel = Exclude<LogLevel, "silent">;
export type LogFields = Record<string, unknown>;

/** What a component takes to report to; silent by default, with `silentLogger`. */
export interface ComponentLogger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** Whether lines of `level` are written now, to skip building fields nobody will read. Absent: every level is. */
  isLevelEnabled?(level: LineLevel): boolean;
}

export interface Logger extends ComponentLogger {
  isLevelEnabled(level: LineLevel): boolean;
  /** A logger adding `fields` to each line; it follows this logger's level, also when that changes. */
  child(fields: LogFields): Logger;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function isLogLevel(value: unknown): value is LogLevel {
  return typeof value === "string" && (LOG_LEVELS as readonly string[]).includes(value);
}

/** The level a logger and all its children honour; setting it (PUT /api/v1/log/level) changes them at once. */
export class LogLevelSetting {
  private rank: number;

  constructor(private current: LogLevel) {
    this.rank = RANK[current];
  }

  get level(): LogLevel {
    return this.current;
  }

  set level(level: LogLevel) {
    if (!isLogLevel(level)) throw new Error(`Unknown log level '${String(level)}'; levels are ${LOG_LEVELS.join(", ")}`);
    this.current = level;
    this.rank = RANK[level];
  }

  enabled(level: LineLevel): boolean {
    return RANK[level] >= this.rank;
  }
}

/** `write` receives each line with its newline; default: stderr, asynchronously. */
export function createLogger(level: LogLevel | LogLevelSetting, base: LogFields = {}, write: (line: string) => void = writeToStderr): Logger {
  const setting = level instanceof LogLevelSetting ? level : new LogLevelSetting(level);
  const bound = redactSecrets(base);
  const log = (at: LineLevel, message: string, fields?: LogFields) => {
    if (!setting.enabled(at)) return;
    write(logLine(at, message, bound, fields));
  };
  return {
    debug: (message, fields) => log("debug", message, fields),
    info: (message, fields) => log("info", message, fields),
    warn: (message, fields) => log("warn", message, fields),
    error: (message, fields) => log("error", message, fields),
    isLevelEnabled: (at) => setting.enabled(at),
    child: (fields) => createLogger(setting, { ...base, ...fields }, write),
  };
}

export const silentLogger: Logger = createLogger("silent");

/** One log line with its newline: `time`, `level`, `msg`, the `base` fields (already redacted), then `fields`. */
export function logLine(level: LineLevel, message: string, base: LogFields, fields: LogFields | undefined): string {
  const time = new Date().toISOString();
  try {
    return `${JSON.stringify({ time, level, msg: message, ...base, ...redactSecrets(withPlainErrors(fields)) })}\n`;
  } catch (error) {
    // A field JSON cannot hold (a BigInt, a cycle) must not cost the line, nor throw at the caller.
    return `${JSON.stringify({ time, level, msg: message, ...base, log_error: `fields left out: ${(error as Error).message}` })}\n`;
  }
}

/** Errors as plain objects (name, message, stack): JSON.stringify and structured cloning would lose them. */
export function withPlainErrors(fields: LogFields | undefined): LogFields | undefined {
  if (!fields) return fields;
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}
