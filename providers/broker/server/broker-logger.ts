/** The logger the broker's server and handlers report to; silent unless one is passed. */
export interface BrokerLogger {
  debug(msg: string, fields?: object): void;
  info(msg: string, fields?: object): void;
  warn(msg: string, fields?: object): void;
  error(msg: string, fields?: object): void;
}

const ignore = (): void => undefined;

export const silentBrokerLogger: BrokerLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
