/** Runs a provider's `topology()` against a fresh DSL builder and compiles the result for its application. */
import type { ConfigValue, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { CompiledTopology } from "../engine/compiled-topology";
import { DslTopologyBuilder } from "./streams-builder";

export function buildTopology(provider: TopologyProvider, config: Readonly<Record<string, ConfigValue>>): CompiledTopology {
  const applicationId = String(config["application.id"] ?? "");
  if (!applicationId) throw new Error(`topology provider '${provider.name}' has no application.id`);
  const builder = new DslTopologyBuilder(applicationId);
  provider.topology(builder, { applicationId, config });
  const defaultKey = config["default.key.serde"] === undefined ? "string" : String(config["default.key.serde"]);
  const defaultValue = config["default.value.serde"] === undefined ? "string" : String(config["default.value.serde"]);
  return new CompiledTopology(applicationId, builder.definition, defaultKey, defaultValue);
}
