/**
 * Starts the embedded broker when no `streams.bootstrap.servers` is configured, in its own worker thread unless
 * `broker.worker` is false, and tells the rest of Sluice where it listens (KAFKA_BOOTSTRAP).
 */
import type { SluiceConfig } from "../../kernel/config/sluice-config";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../kernel/contracts/kafka-bootstrap";
import type { Plugin, PluginContext } from "../../kernel/contracts/plugin";
import type { Logger } from "../../kernel/logger";
import { startBroker, startBrokerInWorker, type RunningBroker } from "./index";
import { brokerOptionsFrom } from "./broker-config";

export class BrokerPlugin implements Plugin, KafkaBootstrap {
  /** Only when no streams.bootstrap.servers names a cluster. */
  readonly provides = [KAFKA_BOOTSTRAP];
  private config!: SluiceConfig;
  private root!: string;
  private logger!: Logger;
  private broker: RunningBroker | undefined;

  configure({ config, components, logger, kernel }: PluginContext): void {
    this.config = config;
    this.root = kernel.root;
    this.logger = logger;
    if (config.optionalString("streams.bootstrap.servers") === undefined) components.register(KAFKA_BOOTSTRAP, { useValue: this });
  }

  async start(): Promise<void> {
    if (this.config.optionalString("streams.bootstrap.servers") !== undefined) return;
    const options = { ...brokerOptionsFrom(this.config, this.root), logger: this.logger };
    this.broker = await (this.config.boolean("broker.worker") ? startBrokerInWorker(options) : startBroker(options));
  }

  servers(): string[] {
    if (!this.broker) throw new Error("the embedded broker has not started");
    return [`${this.broker.host}:${this.broker.port}`];
  }

  async close(): Promise<void> {
    await this.broker?.close();
    this.broker = undefined;
  }
}
