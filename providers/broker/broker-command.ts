/** `sluice broker [--broker.port=…]`: the embedded broker alone, for several Sluice processes or any Kafka project. */
import { LOG_CONFIG } from "../../kernel/config/kernel-config";
import { loadPluginConfiguration } from "../../kernel/config/plugin-configuration";
import type { CliCommand } from "../../kernel/contracts/cli-command";
import { SLUICE_ROOT } from "../../kernel/kernel";
import { createLogger } from "../../kernel/logger";
import { startBroker } from "./index";
import { brokerOptionsFrom } from "./broker-config";

export class BrokerCommand implements CliCommand {
  readonly name = "broker";
  readonly usage = "[--broker.port=9092] [--key=value ...]";
  readonly summary = "run the embedded Kafka-protocol broker on its own";

  async run(sources: { root: string; configFile?: string; overrides?: Record<string, string> }) {
    // The whole configuration file is validated, each section by the plugin that declares it, broker.* by the broker's.
    const config = await loadPluginConfiguration({ ...sources, env: process.env }, SLUICE_ROOT);
    const logger = createLogger(config.of(LOG_CONFIG).get("level")).child({ component: "broker" });
    return startBroker({ ...brokerOptionsFrom(config, sources.root), logger });
  }
}
