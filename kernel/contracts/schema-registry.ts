/**
 * The schema registry built into Sluice, when it runs (`schema.registry.enable`): where on Sluice's HTTP server it
 * answers, so that the registry serdes use it when `schema.registry.url` is left empty.
 */
import { token } from "./token";

export interface BuiltInSchemaRegistry {
  /** The path of its REST API on Sluice's HTTP server, e.g. `/schema-registry`. */
  readonly path: string;
}

export const BUILTIN_SCHEMA_REGISTRY = token<BuiltInSchemaRegistry>("sluice.schema.BuiltInRegistry");
