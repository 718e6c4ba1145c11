/** The logger the Kafka client accepts (the shape every Sluice component takes); silent unless one is given. */
export interface KafkaClientLogger {
  debug(message: string, fields?: object): void;
  info(message: string, fields?: object): void;
  warn(message: string, fields?: object): void;
  error(message: string, fields?: object): void;
}

const ignore = (): void => undefined;

export const silentKafkaClientLogger: KafkaClientLogger = { debug: ignore, info: ignore, warn: ignore, error: ignore };
