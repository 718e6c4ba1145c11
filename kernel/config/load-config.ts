/**
 * Where configuration comes from, lowest precedence first: defaults (config/schema.ts), defaults of the caller
 * (the CLI and the embedding API differ on server.enable), the file cosmiconfig
 * finds (sluice.config.*, .sluicerc*, package.json#sluice) or the one named by --config, a programmatic object,
 * environment variables SLUICE_<SECTION>_<KEY>, and command-line --a.b.c=value overrides.
 */
import { cosmiconfig } from "cosmiconfig";
import { StartupError } from "../errors";
import { coerceValue, specFor } from "./config-validation";
import { SluiceConfig, type ConfigValue } from "./sluice-config";

export interface ConfigSources {
  /** Folder the config file search starts from. */
  root: string;
  /** Explicit config file; when set, no search happens. */
  configFile?: string;
  /** Caller defaults, below the file: same forms as `programmatic`. */
  defaults?: Record<string, unknown>;
  /** Nested or dotted object, e.g. `{ server: { port: 0 } }` or `{ "server.port": 0 }`. */
  programmatic?: Record<string, unknown>;
  env?: NodeJS.ProcessEnv;
  /** Dotted key → raw string value, from `--key=value` flags. */
  overrides?: Record<string, string>;
}

const ENV_PREFIX = "SLUICE_";
const SEARCH_PLACES = [
  "package.json",
  ".sluicerc",
  ".sluicerc.json",
  ".sluicerc.yaml",
  ".sluicerc.yml",
  ".sluicerc.js",
  ".sluicerc.cjs",
  "sluice.config.json",
  "sluice.config.yaml",
  "sluice.config.yml",
  "sluice.config.js",
  "sluice.config.cjs",
];

export async function loadConfig(sources: ConfigSources): Promise<SluiceConfig> {
  const values = new Map<string, ConfigValue>();
  const file = await readConfigFile(sources);
  if (sources.defaults) mergeObject(values, sources.defaults, "the caller's defaults", false);
  if (file) mergeObject(values, file.config, file.filepath, false);
  if (sources.programmatic) mergeObject(values, sources.programmatic, "the program's configuration", false);
  for (const [name, raw] of Object.entries(sources.env ?? {})) {
    if (!name.startsWith(ENV_PREFIX) || raw === undefined) continue;
    const key = name.slice(ENV_PREFIX.length).toLowerCase().replace(/_/g, ".");
    setValue(values, key, raw, `environment variable ${name}`, true);
  }
  for (const [key, raw] of Object.entries(sources.overrides ?? {})) {
    setValue(values, key, raw, `command-line flag --${key}`, false);
  }
  return new SluiceConfig(values);
}

async function readConfigFile(sources: ConfigSources): Promise<{ config: unknown; filepath: string } | null> {
  const explorer = cosmiconfig("sluice", { searchPlaces: SEARCH_PLACES, searchStrategy: "none" });
  try {
    const result = sources.configFile ? await explorer.load(sources.configFile) : await explorer.search(sources.root);
    return result && !result.isEmpty ? result : null;
  } catch (error) {
    const where = sources.configFile ?? sources.root;
    throw new StartupError(`Cannot read configuration from ${where}: ${(error as Error).message}`, { cause: error });
  }
}

function mergeObject(values: Map<string, ConfigValue>, object: unknown, source: string, caseInsensitive: boolean): void {
  if (typeof object !== "object" || object === null || Array.isArray(object)) {
    throw new StartupError(`Configuration in ${source} must be an object`);
  }
  for (const [key, raw] of flatten(object as Record<string, unknown>, "")) {
    setValue(values, key, raw, source, caseInsensitive);
  }
}

function* flatten(object: Record<string, unknown>, prefix: string): Generator<[string, unknown]> {
  for (const [key, value] of Object.entries(object)) {
    const path = prefix + key;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) yield* flatten(value as Record<string, unknown>, `${path}.`);
    else yield [path, value];
  }
}

function setValue(values: Map<string, ConfigValue>, key: string, raw: unknown, source: string, caseInsensitive: boolean): void {
  const spec = specFor(key, source, caseInsensitive);
  if (!spec) {
    if (typeof raw === "string" || typeof raw === "number" || typeof raw === "boolean") values.set(key, raw);
    return;
  }
  values.set(spec.key, coerceValue(spec, raw, source));
}
