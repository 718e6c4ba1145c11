/** Runs a provider's `topology()` against a fresh DSL builder and compiles the result for its application. */
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { CompiledTopology } from "./compiled-topology";
import type { ApplicationConfig } from "../streams-config";
import { DslTopologyBuilder } from "../topology/streams-builder";
import { RegistrySerdes } from "../serdes/registry/registry-serdes";

export function buildTopology(provider: TopologyProvider, { values, settings, code }: ApplicationConfig): CompiledTopology {
  const applicationId = String(values["application.id"] ?? "");
  if (!applicationId) throw new Error(`topology provider '${provider.name}' has no application.id`);
  const builder = new DslTopologyBuilder(applicationId);
  provider.topology(builder, { applicationId, config: values });
  return new CompiledTopology(applicationId, builder.definition, settings.get("default.key.serde"), settings.get("default.value.serde"), code, settings.get("default.timestamp.extractor"), new RegistrySerdes(values));
}
