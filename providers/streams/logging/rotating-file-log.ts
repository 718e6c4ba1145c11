/**
 * An application's own log file (`log.dir`, `log.maxFileSize`): JSON lines in `<log.dir>/<application.id>.log`,
 * rotated to `.log.1` when it would pass the size limit. Every line also goes to the runtime's logger.
 */
import * as fs from "fs";
import * as path from "path";
import { withPlainErrors, type ComponentLogger, type LogFields } from "../../../kernel/logger";
export function withApplicationLogFile(logger: ComponentLogger, applicationId: string, dir: string, maxFileSize: number): ComponentLogger {
  if (!dir) return logger;
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${applicationId}.log`);
  let size = fs.existsSync(file) ? fs.statSync(file).size : 0;
  const write = (level: string, message: string, fields?: LogFields) => {
    const line = `${JSON.stringify({ time: new Date().toISOString(), level, app: applicationId, msg: message, ...withPlainErrors(fields) })}\n`;
    const bytes = Buffer.byteLength(line);
    if (maxFileSize > 0 && size + bytes > maxFileSize && size > 0) {
      fs.renameSync(file, `${file}.1`);
      size = 0;
    }
    fs.appendFileSync(file, line);
    size += bytes;
  };
  const both = (level: "debug" | "info" | "warn" | "error") => (message: string, fields?: LogFields) => {
    logger[level](message, fields);
    write(level, message, fields);
  };
  return { debug: both("debug"), info: both("info"), warn: both("warn"), error: both("error") };
}
