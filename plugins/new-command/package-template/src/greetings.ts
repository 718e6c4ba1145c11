/**
 * Greetings: counts how often each name is written to `input.topic`, keeps the counts in the key-value store
 * `counts` (queryable over REST), and writes every new count to `output.topic`. The topics are settings, so more
 * instances can be deployed over REST, each on topics of its own.
 */
import type { StreamsBuilder, TopologyContext, TopologyProvider } from "sluice";

export class Greetings implements TopologyProvider {
  readonly name = "Greetings";
  readonly version = "0.1.0";
  readonly description = "Counts how often each name is written to input.topic";
  readonly config = { "application.id": "{{applicationId}}", "input.topic": "names", "output.topic": "greeting-counts" };

  topology(builder: StreamsBuilder, { config }: TopologyContext): void {
    builder
      .stream<string | null, string>(String(config["input.topic"]), { keySerde: "string", valueSerde: "string" })
      .mapValues((name) => name.trim())
      .filter((_key, name) => name.length > 0)
      .groupBy((_key, name) => name, { keySerde: "string", valueSerde: "string" })
      .count({ storeName: "counts", keySerde: "string", valueSerde: "long" })
      .toStream()
      .to(String(config["output.topic"]), { keySerde: "string", valueSerde: "long" });
  }
}
