/** Feeds the examples' input topics with sample data while `examples.feed` is true (the default of `npm start`). */
import { configSection, KAFKA_BOOTSTRAP, KAFKA_CLUSTER, optional, resolveBootstrapServers, type ComponentRegistry, type Plugin, type PluginContext, type Logger, type SluiceConfig } from "sluice";
import { startExampleFeeder } from "./example-feeder";

/** The examples package's own section: a package outside Sluice declares its keys the same way. */
export const EXAMPLES_CONFIG = configSection({
  name: "examples",
  doc: "The example applications' sample data (the examples package, loaded by `npm start`).",
  keys: {
    feed: { type: "boolean", default: false, doc: "Feed the example applications' input topics with sample data." },
    "feed.interval.ms": { type: "integer", default: 500, doc: "Interval between sample-data batches." },
  },
});

export class ExampleFeederPlugin implements Plugin {
  readonly requires = [optional(KAFKA_CLUSTER), optional(KAFKA_BOOTSTRAP)];
  readonly configSections = [EXAMPLES_CONFIG];
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
    const examples = this.config.of(EXAMPLES_CONFIG);
    if (!examples.get("feed")) return;
    const intervalMs = examples.get("feed.interval.ms");
    this.feeder = await startExampleFeeder({ bootstrapServers: resolveBootstrapServers(this.components), intervalMs });
    this.logger.info("feeding the example applications with sample data", { intervalMs });
  }

  async close(): Promise<void> {
    await this.feeder?.stop();
  }
}
