/** A stateless application for the dead-letter tests: `<id>-in` upper-cased to `<id>-out`, failing on values that start with "poison". */
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { ConfigValue, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";

/** With processing.error.policy=dead_letter, and `config` on top. */
export function poisonSensitive(id: string, config: Record<string, ConfigValue> = {}): TopologyProvider {
  return {
    name: "PoisonSensitive",
    version: "1.0.0",
    config: { "application.id": id, "processing.error.policy": "dead_letter", ...config },
    topology(builder: StreamsBuilder) {
      builder
        .stream<string, string>(`${id}-in`, { keySerde: "string", valueSerde: "string" })
        .mapValues((value) => {
          if (value.startsWith("poison")) throw new TypeError(`cannot digest '${value}'`);
          return value.toUpperCase();
        })
        .to(`${id}-out`, { keySerde: "string", valueSerde: "string" });
    },
  };
}
