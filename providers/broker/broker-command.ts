/** `sluice broker [--broker.port=…]`: the embedded broker alone, for several Sluice processes or any Kafka project. */
import { loadConfig } from "../../kernel/config/load-config";
import type { CliCommand } from "../../kernel/contracts/cli-command";
import { createLogger, type LogLevel } from "../../kernel/logger";
import { startBroker } from "./index";
import { brokerOptionsFrom } from "./broker-config";

export class BrokerCommand implements CliCommand {
  readonly name = "broker";
  readonly usage = "[--broker.port=9092] [--key=value ...]";
  readonly summary = "run the embedded Kafka-protocol broker on its own";

  async run(sources: { root: string; configFile?: string; overrides?: Record<string, string> }) {
    const config = await loadConfig({ ...sources, env: process.env });
    const logger = createLogger(config.string("log.level") as LogLevel).child({ component: "broker" });
    return startBroker({ ...brokerOptionsFrom(config, sources.root), logger });
  }
}
