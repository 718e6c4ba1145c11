/** Structured logging: one JSON object per line on stderr, quiet below the configured level. */

export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
export type LogFields = Record<string, unknown>;

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  child(fields: LogFields): Logger;
}

/** What a component takes to report to (a Logger without `child`); silent by default, with `silentLogger`. */
export type ComponentLogger = Omit<Logger, "child">;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export function createLogger(level: LogLevel, base: LogFields = {}, write: (line: string) => void = (line) => process.stderr.write(line)): Logger {
  const log = (at: Exclude<LogLevel, "silent">, message: string, fields?: LogFields) => {
    if (RANK[at] < RANK[level]) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg: message, ...base, ...withPlainErrors(fields) })}\n`);
  };
  return {
    debug: (message, fields) => log("debug", message, fields),
    info: (message, fields) => log("info", message, fields),
    warn: (message, fields) => log("warn", message, fields),
    error: (message, fields) => log("error", message, fields),
    child: (fields) => createLogger(level, { ...base, ...fields }, write),
  };
}

export const silentLogger: Logger = createLogger("silent");

/** Errors as plain objects (name, message, stack): JSON.stringify and structured cloning would lose them. */
export function withPlainErrors(fields: LogFields | undefined): LogFields | undefined {
  if (!fields) return fields;
  const out: LogFields = {};
  for (const [key, value] of Object.entries(fields)) {
    out[key] = value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}
