/**
 * The `schema` section: whether Sluice serves its own registry, and the topic that holds its state. Sections are
 * named by a key's first part, so the registry's keys sit under `schema.registry.` within it.
 */
import { configSection } from "sluice";

export const SCHEMA_REGISTRY_CONFIG = configSection({
  name: "schema",
  doc: "The schema registry built into Sluice: the Confluent Schema Registry API under /schema-registry, its state in a compacted topic.",
  keys: {
    "registry.enable": {
      type: "boolean",
      doc: "Serve the built-in schema registry. Unset: on when Sluice runs its embedded broker (no streams.bootstrap.servers), off with a cluster of the user's.",
    },
    "registry.topic": { type: "string", default: "_schemas", doc: "The compacted topic holding the registry's subjects and schemas (Confluent's kafkastore.topic)." },
  },
});
