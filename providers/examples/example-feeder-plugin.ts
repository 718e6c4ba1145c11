/** Feeds the examples' input topics with sample data while `examples.feed` is true (the default of `npm start`). */
import { KAFKA_BOOTSTRAP, optional, resolveBootstrapServers, type ComponentRegistry, type SluiceConfig, type Plugin, type PluginContext, type Logger } from "sluice";
import { startExampleFeeder } from "./example-feeder";

export class ExampleFeederPlugin implements Plugin {
  readonly requires = [optional(KAFKA_BOOTSTRAP)];
  private config!: SluiceConfig;
  private components!: ComponentRegistry;
  private logger!: Logger;
  private feeder: { stop(): Promise<void> } | undefined;

  configure({ config, components, logger }: PluginContext): void {
    this.config = config;
    this.components = components;
    this.logger = logger;
  }

  async start(): Promise<void> {
    if (!this.config.boolean("examples.feed")) return;
    const bootstrapServers = resolveBootstrapServers(this.config, this.components);
    this.feeder = await startExampleFeeder({ bootstrapServers, intervalMs: this.config.number("examples.feed.interval.ms") });
    this.logger.info("feeding the example applications with sample data", { intervalMs: this.config.number("examples.feed.interval.ms") });
  }

  async close(): Promise<void> {
    await this.feeder?.stop();
  }
}
