/** The logger the storage layer reports to; silent unless the broker passes one. */
export interface StorageLogger {
  debug(msg: string, fields?: object): void;
  info(msg: string, fields?: object): void;
  warn(msg: string, fields?: object): void;
  error(msg: string, fields?: object): void;
}

const ignore = (): void => undefined;

export const silentLogger: StorageLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
