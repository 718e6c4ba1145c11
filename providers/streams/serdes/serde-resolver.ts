/**
 * Turns a serde reference (a Serde object, a builtin name, or `module#export` from configuration) into a
 * Serde. Module paths resolve from the process's working directory, like any configured module.
 */
import * as path from "path";
import type { Serde } from "../../../kernel/contracts/streams/serde";
import { BUILTIN_SERDES } from "./builtin-serdes";

/** A serde, a builtin name / `module#export`, undefined for the configured default, or a wrapper of the default. */
export type SerdeSpec = Serde<any> | string | undefined | { wrap: (inner: Serde<any>) => Serde<any>; inner: SerdeSpec };

function isSerde(value: unknown): value is Serde<unknown> {
  const candidate = value as Serde<unknown> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.serialize === "function" &&
    typeof candidate.deserialize === "function"
  );
}

/** Loads `module#export`; the module path is resolved against `baseDir` when relative. */
export function loadModuleExport(reference: string, baseDir = process.cwd()): unknown {
  const [modulePath, exportName = "default"] = reference.split("#");
  const resolvedPath = modulePath.startsWith(".") ? path.resolve(baseDir, modulePath) : modulePath;
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const loaded = require(require.resolve(resolvedPath, { paths: [baseDir] })) as Record<string, unknown>;
  if (!(exportName in loaded)) throw new Error(`module '${modulePath}' has no export '${exportName}'`);
  return loaded[exportName];
}

export function resolveSerde(spec: SerdeSpec, fallback: SerdeSpec, what: string): Serde<any> {
  const chosen = spec ?? fallback;
  if (chosen === undefined) throw new Error(`no serde for ${what}`);
  if (typeof chosen === "object") {
    if ("wrap" in chosen) return chosen.wrap(resolveSerde(chosen.inner, fallback, what));
    if (isSerde(chosen)) return chosen;
    throw new Error(`the serde of ${what} is not a serde (serialize/deserialize)`);
  }
  const builtin = BUILTIN_SERDES[chosen];
  if (builtin) return builtin;
  if (!chosen.includes("#")) {
    throw new Error(`unknown serde '${chosen}' for ${what}: expected ${Object.keys(BUILTIN_SERDES).join(", ")} or module#export`);
  }
  const loaded = loadModuleExport(chosen);
  const serde = typeof loaded === "function" && !isSerde(loaded) ? (loaded as () => unknown)() : loaded;
  if (!isSerde(serde)) throw new Error(`'${chosen}' for ${what} is not a serde (serialize/deserialize)`);
  return serde;
}
