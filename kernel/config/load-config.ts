/**
 * Where configuration comes from, lowest precedence first: the declared defaults, defaults of the caller
 * (the CLI and the embedding API differ on server.enable), the file cosmiconfig
 * finds (sluice.config.*, .sluicerc*, package.json#sluice) or the one named by --config, a programmatic object,
 * environment variables SLUICE_<SECTION>_<KEY>, and command-line --a.b.c=value overrides. The sources are read
 * first and validated once the plugins that declare the sections are known.
 */
import { cosmiconfig } from "cosmiconfig";
import { StartupError } from "../errors";
import type { ConfigValue } from "./config-schema";
import { coerceValue, type ConfigDeclarations } from "./config-validation";
import { SluiceConfig } from "./sluice-config";

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

/** One value as a source gives it, before validation. */
export interface RawEntry {
  key: string;
  raw: unknown;
  source: string;
  /** Environment variables name keys in capitals: matched without case, and ignored in a section no plugin declares. */
  fromEnvironment: boolean;
}

/** Every configured value, lowest precedence first. */
export async function readConfigSources(sources: ConfigSources): Promise<RawEntry[]> {
  const entries: RawEntry[] = [];
  const file = await readConfigFile(sources);
  if (sources.defaults) entries.push(...objectEntries(sources.defaults, "the caller's defaults"));
  if (file) entries.push(...objectEntries(file.config, file.filepath));
  if (sources.programmatic) entries.push(...objectEntries(sources.programmatic, "the program's configuration"));
  for (const [name, raw] of Object.entries(sources.env ?? {})) {
    if (!name.startsWith(ENV_PREFIX) || raw === undefined) continue;
    const key = name.slice(ENV_PREFIX.length).toLowerCase().replace(/_/g, ".");
    entries.push({ key, raw, source: `environment variable ${name}`, fromEnvironment: true });
  }
  for (const [key, raw] of Object.entries(sources.overrides ?? {})) entries.push({ key, raw, source: `command-line flag --${key}`, fromEnvironment: false });
  return entries;
}

/**
 * The configuration the entries give under the declared sections. A key of a section nobody declares is an error
 * naming it, unless it comes from the environment or `partial` asks for the declared sections only (and for the
 * keys they declare: another plugin may claim a sub-section of theirs).
 */
export function validateConfig(entries: readonly RawEntry[], declarations: ConfigDeclarations, partial = false): SluiceConfig {
  const values = new Map<string, ConfigValue>();
  const deprecations: string[] = [];
  for (const { key, raw, source, fromEnvironment } of entries) {
    const declared = declarations.find(key, source, fromEnvironment, partial);
    if (declared) values.set(declared.key, coerceValue(declared, raw, source));
    else if (!partial && !fromEnvironment) throw declarations.unclaimed(key, source);
    if (declared?.spec.deprecated !== undefined) deprecations.push(`${declared.key} (from ${source}) is deprecated: ${declared.spec.deprecated}`);
  }
  return new SluiceConfig(values, declarations.sections(), deprecations);
}

export async function loadConfig(sources: ConfigSources, declarations: ConfigDeclarations): Promise<SluiceConfig> {
  return validateConfig(await readConfigSources(sources), declarations);
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

function objectEntries(object: unknown, source: string): RawEntry[] {
  if (typeof object !== "object" || object === null || Array.isArray(object)) {
    throw new StartupError(`Configuration in ${source} must be an object`);
  }
  return [...flatten(object as Record<string, unknown>, "")].map(([key, raw]) => ({ key, raw, source, fromEnvironment: false }));
}

function* flatten(object: Record<string, unknown>, prefix: string): Generator<[string, unknown]> {
  for (const [key, value] of Object.entries(object)) {
    const path = prefix + key;
    if (typeof value === "object" && value !== null && !Array.isArray(value)) yield* flatten(value as Record<string, unknown>, `${path}.`);
    else yield [path, value];
  }
}
