/**
 * Starts the embedded broker when the configuration names no cluster (KAFKA_CLUSTER), in its own worker thread unless
 * `broker.worker` is false, and tells the rest of Sluice where it listens (KAFKA_BOOTSTRAP).
 */
import type { SluiceConfig } from "../../kernel/config/sluice-config";
import { configuredCluster, KAFKA_BOOTSTRAP, KAFKA_CLUSTER, type KafkaBootstrap } from "../../kernel/contracts/kafka-bootstrap";
import { optional, type Plugin, type PluginContext } from "../../kernel/contracts/plugin";
import type { Logger } from "../../kernel/logger";
import { startBroker, startBrokerInWorker, type RunningBroker } from "./index";
import { BROKER_CONFIG, brokerOptionsFrom } from "./broker-config";

export class BrokerPlugin implements Plugin, KafkaBootstrap {
  /** Whether a cluster is configured: without the plugin that says so, the embedded broker serves. */
  readonly requires = [optional(KAFKA_CLUSTER)];
  /** Only when no cluster is configured. */
  readonly provides = [KAFKA_BOOTSTRAP];
  readonly configSections = [BROKER_CONFIG];
  private config!: SluiceConfig;
  private root!: string;
  private logger!: Logger;
  private broker: RunningBroker | undefined;
  private serves = false;

  configure({ config, components, logger, kernel }: PluginContext): void {
    this.config = config;
    this.root = kernel.root;
    this.logger = logger;
    this.serves = configuredCluster(components) === undefined;
    if (this.serves) components.register(KAFKA_BOOTSTRAP, { useValue: this });
  }

  async start(): Promise<void> {
    if (!this.serves) return;
    const options = { ...brokerOptionsFrom(this.config, this.root), logger: this.logger };
    this.broker = await (this.config.of(BROKER_CONFIG).get("worker") ? startBrokerInWorker(options) : startBroker(options));
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
