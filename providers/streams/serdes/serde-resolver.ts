/**
 * Turns a serde reference (a Serde object, a builtin name, the name of a serde registered through
 * `sluice.streams.NamedCode`, or `module#export` from trusted configuration) into a Serde. Module paths resolve
 * from the process's working directory, like any configured module.
 */
import type { RegistrySerdeRef } from "../../../kernel/contracts/streams/dsl/serde-ref";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import type { NamedCodeLookup } from "../../../kernel/contracts/streams/named-code";
import { loadModuleExport, namesModule } from "../code/module-export";
import { BUILTIN_SERDES } from "./builtin-serdes";

/**
 * A serde, a builtin name / `module#export`, undefined for the configured default, a wrapper of another (the default
 * when its inner one is undefined), or a serde made of several (a stream-stream join's store holds either side's
 * values), or a named serde given the schema it writes.
 */
export type SerdeSpec =
  | Serde<any>
  | string
  | undefined
  | RegistrySerdeRef
  | { wrap: (inner: Serde<any>) => Serde<any>; inner: SerdeSpec }
  | { combine: (...parts: Serde<any>[]) => Serde<any>; parts: SerdeSpec[] };

/** A named serde that can be given the schema it writes (the schema registry serdes). */
export interface SchemaSerde<T> extends Serde<T> {
  withSchema(given: RegistrySerdeRef): Serde<T>;
}

function isSerde(value: unknown): value is Serde<unknown> {
  const candidate = value as Serde<unknown> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.serialize === "function" &&
    typeof candidate.deserialize === "function"
  );
}

export function resolveSerde(spec: SerdeSpec, fallback: SerdeSpec, what: string, named?: NamedCodeLookup): Serde<any> {
  const chosen = spec ?? fallback;
  if (chosen === undefined) throw new Error(`no serde for ${what}`);
  if (typeof chosen === "object") {
    if ("wrap" in chosen) return chosen.wrap(resolveSerde(chosen.inner, fallback, what, named));
    if ("combine" in chosen) return chosen.combine(...chosen.parts.map((part) => resolveSerde(part, fallback, what, named)));
    if (isSerde(chosen)) return chosen;
    if ("schema" in chosen && typeof chosen.serde === "string") {
      const base = named?.find("serde", chosen.serde) as Partial<SchemaSerde<unknown>> | undefined;
      if (typeof base?.withSchema === "function") return base.withSchema(chosen);
      throw new Error(`the serde '${chosen.serde}' of ${what} takes no schema (avro, json_schema and protobuf do)`);
    }
    throw new Error(`the serde of ${what} is not a serde (serialize/deserialize)`);
  }
  const builtin = BUILTIN_SERDES[chosen] ?? named?.find("serde", chosen);
  if (builtin) return builtin;
  if (!namesModule(chosen)) {
    const registered = named?.names("serde") ?? [];
    throw new Error(`unknown serde '${chosen}' for ${what}: expected ${[...Object.keys(BUILTIN_SERDES), ...registered].join(", ")} or module#export`);
  }
  const loaded = loadModuleExport(chosen);
  const serde = typeof loaded === "function" && !isSerde(loaded) ? (loaded as () => unknown)() : loaded;
  if (!isSerde(serde)) throw new Error(`'${chosen}' for ${what} is not a serde (serialize/deserialize)`);
  return serde;
}
