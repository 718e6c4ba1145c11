/** Looks keys up in the schema and turns raw values (from files, env, argv) into typed ones. */
import {
  APPLICATION_KEYS,
  CONFIG_SCHEMA,
  KNOWN_SECTIONS,
  OPEN_PREFIXES,
  type ConfigKeySpec,
  type ConfigValue,
} from "../../config/schema";
import { StartupError } from "../errors";

const specsByKey = new Map(CONFIG_SCHEMA.map((spec) => [spec.key, spec]));
const specsByLowerKey = new Map(CONFIG_SCHEMA.map((spec) => [spec.key.toLowerCase(), spec]));
const applicationSpecs = new Map(APPLICATION_KEYS.map((spec) => [spec.key, spec]));
const applicationSpecsLower = new Map(APPLICATION_KEYS.map((spec) => [spec.key.toLowerCase(), spec]));

const openStringSpec = (key: string): ConfigKeySpec => ({ key, type: "string", doc: "free-form" });

export function isKnownSection(key: string): boolean {
  const section = key.split(".", 1)[0];
  return (KNOWN_SECTIONS as readonly string[]).includes(section);
}

/**
 * The spec of a key, or undefined for a key outside the known sections (kept as given, for extensions).
 * An unknown key inside a known section is an error naming it. `caseInsensitive` serves environment variables.
 */
export function specFor(key: string, source: string, caseInsensitive = false): ConfigKeySpec | undefined {
  const exact = caseInsensitive ? specsByLowerKey.get(key.toLowerCase()) : specsByKey.get(key);
  if (exact) return exact;
  const lower = key.toLowerCase();
  const prefix = OPEN_PREFIXES.find((p) => (caseInsensitive ? lower.startsWith(p.toLowerCase()) : key.startsWith(p)));
  if (prefix) return openStringSpec(caseInsensitive ? prefix + lower.slice(prefix.length) : key);
  if (key.startsWith("applications.") || lower.startsWith("applications.")) return applicationSpec(key, source, caseInsensitive);
  if (!isKnownSection(caseInsensitive ? lower : key)) return undefined;
  throw new StartupError(`Unknown configuration key '${key}' (from ${source}); see config/README.md for the keys of section '${key.split(".", 1)[0]}'`);
}

function applicationSpec(key: string, source: string, caseInsensitive: boolean): ConfigKeySpec {
  // applications.<application.id>.<streams key>: the id itself may contain dots, so try each split point.
  const parts = key.split(".");
  for (let i = 2; i < parts.length; i++) {
    const rest = parts.slice(i).join(".");
    const spec = caseInsensitive ? applicationSpecsLower.get(rest.toLowerCase()) : applicationSpecs.get(rest);
    if (spec) return { ...spec, key: `${parts.slice(0, i).join(".")}.${spec.key}` };
    const open = OPEN_PREFIXES.find((p) => p.startsWith("streams.") && rest.startsWith(p.slice("streams.".length)));
    if (open) return openStringSpec(key);
  }
  throw new StartupError(`Unknown configuration key '${key}' (from ${source}): expected applications.<application.id>.<streams key>`);
}

export function coerceValue(spec: ConfigKeySpec, raw: unknown, source: string): ConfigValue {
  const value = coerceToType(spec, raw);
  if (value === undefined) {
    throw new StartupError(`Configuration key '${spec.key}' (from ${source}) must be ${describeType(spec)}, got ${JSON.stringify(raw)}`);
  }
  if (spec.choices && !spec.choices.includes(value as string)) {
    throw new StartupError(`Configuration key '${spec.key}' (from ${source}) must be one of ${spec.choices.join(", ")}, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function coerceToType(spec: ConfigKeySpec, raw: unknown): ConfigValue | undefined {
  switch (spec.type) {
    case "string":
      return typeof raw === "string" ? raw : typeof raw === "number" || typeof raw === "boolean" ? String(raw) : undefined;
    case "integer": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      return Number.isInteger(n) ? n : undefined;
    }
    case "number": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      return Number.isFinite(n) ? n : undefined;
    }
    case "boolean":
      if (typeof raw === "boolean") return raw;
      if (raw === "true") return true;
      if (raw === "false") return false;
      return undefined;
    case "string-list":
      if (Array.isArray(raw) && raw.every((item) => typeof item === "string")) return raw as string[];
      if (typeof raw === "string") return raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
      return undefined;
  }
}

function describeType(spec: ConfigKeySpec): string {
  return { string: "a string", integer: "an integer", number: "a number", boolean: "true or false", "string-list": "a list of strings" }[spec.type];
}
