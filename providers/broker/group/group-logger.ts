/** The logger the group coordinator reports to; silent unless the broker passes one. */
export interface GroupLogger {
  debug(msg: string, fields?: object): void;
  info(msg: string, fields?: object): void;
  warn(msg: string, fields?: object): void;
  error(msg: string, fields?: object): void;
}

const ignore = (): void => undefined;

export const silentGroupLogger: GroupLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
