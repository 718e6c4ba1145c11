/**
 * How a plugin declares the configuration it owns: a section (`broker`, `streams`, …) of keys, each with its type,
 * default, allowed values and documentation. The kernel validates every key of a section against the declaration
 * of the plugin that claims it; reading a key through the declaration returns its declared type.
 */

export type ConfigType = "string" | "integer" | "number" | "boolean" | "string-list";
export type ConfigValue = string | number | boolean | readonly string[];

interface KeyDocs {
  readonly doc: string;
  /**
   * The key is kept so that configurations setting it still load, but it is going away: why, and what to set
   * instead. Setting it logs a warning that says so.
   */
  readonly deprecated?: string;
}

interface StringKey extends KeyDocs {
  readonly type: "string";
  readonly default?: string;
  /** The values allowed; reading the key returns their union. */
  readonly choices?: readonly string[];
  /**
   * The value names code: `module#export`, or the name of code of this kind registered through
   * `sluice.streams.NamedCode` descriptors. Only trusted configuration (file, environment, command line) may name a
   * module; configuration that arrives over REST may name registrations only.
   */
  readonly code?: string;
  /** The value is a path: trusted configuration only, or confined under Sluice's own directories when it arrives over REST. */
  readonly path?: "file" | "directory";
}

interface NumberKey extends KeyDocs {
  readonly type: "integer" | "number";
  readonly default?: number;
  /** The least value allowed. */
  readonly min?: number;
  /** The greatest value allowed. */
  readonly max?: number;
}

interface BooleanKey extends KeyDocs {
  readonly type: "boolean";
  readonly default?: boolean;
}

interface ListKey extends KeyDocs {
  readonly type: "string-list";
  readonly default?: readonly string[];
}

export type KeySpec = StringKey | NumberKey | BooleanKey | ListKey;

export type ConfigKeys = Readonly<Record<string, KeySpec>>;

type Declared<S extends KeySpec> = S extends { readonly choices: readonly (infer C)[] }
  ? C
  : S extends StringKey
    ? string
    : S extends NumberKey
      ? number
      : S extends BooleanKey
        ? boolean
        : readonly string[];

/** What reading a key gives: its declared type, or undefined too when it has no default. */
export type KeyValue<S extends KeySpec> = S extends { readonly default: unknown } ? Declared<S> : Declared<S> | undefined;

export interface ConfigSection<K extends ConfigKeys = ConfigKeys> {
  /** The first part of its keys: `broker` for `broker.port`. */
  readonly name: string;
  /** One paragraph for config/README.md. */
  readonly doc: string;
  /** Keys relative to the section (`port`), or to `<section>.<name>.` when `named`. */
  readonly keys: K;
  /** Prefixes (relative, ending with a dot) under which any key is a free-form string → what they hold. */
  readonly open: Readonly<Record<string, string>>;
  /** Keys sit under a name of the user's: `applications.<application.id>.<key>` (the name may hold dots). */
  readonly named: boolean;
}

/** Keys declared once and shared by several sections (the streams keys, also per application). */
export function configKeys<const K extends ConfigKeys>(keys: K): K {
  return keys;
}

/** Declares a section; a default that its own key would refuse is a programming error, thrown at once. */
export function configSection<const K extends ConfigKeys>(declaration: {
  name: string;
  doc: string;
  keys: K;
  open?: Readonly<Record<string, string>>;
  named?: boolean;
}): ConfigSection<K> {
  const section = { open: {}, named: false, ...declaration };
  for (const [key, spec] of Object.entries(section.keys)) {
    if (spec.default !== undefined && "mismatch" in checked(spec, spec.default)) {
      throw new TypeError(`${section.name}.${key}: default ${JSON.stringify(spec.default)} does not fit its own declaration`);
    }
  }
  return section;
}

/** `value` when it is a value of `spec` (of its type, one of its choices), else what it must be. */
export function checked(spec: KeySpec, value: unknown): { value: ConfigValue } | { mismatch: string } {
  const typed = ofType(spec.type, value);
  if (typed === undefined) return { mismatch: `must be ${TYPE_NAMES[spec.type]}` };
  if (spec.type === "string" && spec.choices && !spec.choices.includes(String(typed))) return { mismatch: `must be one of ${spec.choices.join(", ")}` };
  if (spec.type === "integer" || spec.type === "number") {
    const range = rangeMismatch(spec, typed as number);
    if (range) return { mismatch: range };
  }
  return { value: typed };
}

function rangeMismatch({ min, max }: NumberKey, value: number): string | undefined {
  if (min !== undefined && max !== undefined && (value < min || value > max)) return `must be from ${min} to ${max}`;
  if (min !== undefined && value < min) return `must be at least ${min}`;
  if (max !== undefined && value > max) return `must be at most ${max}`;
  return undefined;
}

function ofType(type: ConfigType, value: unknown): ConfigValue | undefined {
  switch (type) {
    case "string":
      return typeof value === "string" ? value : undefined;
    case "integer":
      return typeof value === "number" && Number.isInteger(value) ? value : undefined;
    case "number":
      return typeof value === "number" && Number.isFinite(value) ? value : undefined;
    case "boolean":
      return typeof value === "boolean" ? value : undefined;
    case "string-list":
      return Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
  }
}

const TYPE_NAMES: Record<ConfigType, string> = {
  string: "a string",
  integer: "an integer",
  number: "a number",
  boolean: "true or false",
  "string-list": "a list of strings",
};
