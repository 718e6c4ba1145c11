/**
 * The sections the loaded plugins claim, and what a raw value (from a file, the environment, a flag) becomes under
 * their declarations: an unknown key of a claimed section, or a value of the wrong type, is an error naming the key
 * and where it came from.
 */
import { StartupError } from "../errors";
import { checked, type ConfigSection, type ConfigValue, type KeySpec } from "./config-schema";
import { HIDDEN, isSecretKey } from "../secrets";

/** A section and the plugin (or the kernel) that declares it. */
export interface SectionClaim {
  owner: string;
  section: ConfigSection;
}

/** A key as declared: its canonical spelling and its spec. */
export interface DeclaredKey {
  key: string;
  spec: KeySpec;
}

const FREE_FORM: KeySpec = { type: "string", doc: "free-form" };

export class ConfigDeclarations {
  private readonly byName = new Map<string, ConfigSection>();

  /** Two owners of one section stop startup naming both. */
  constructor(readonly claims: readonly SectionClaim[]) {
    const owners = new Map<string, string>();
    for (const { owner, section } of claims) {
      const earlier = owners.get(section.name);
      if (earlier !== undefined) throw new StartupError(`${owner} and ${earlier} both declare configuration section '${section.name}'`);
      owners.set(section.name, owner);
      this.byName.set(section.name, section);
    }
    for (const { owner, section } of claims) {
      const hidden = this.sectionOf(`${section.name}.`, section);
      const shadowed = hidden && Object.keys(hidden.keys).find((key) => key.startsWith(`${section.name.slice(hidden.name.length + 1)}.`));
      if (hidden && shadowed !== undefined) throw new StartupError(`${owner} claims configuration section '${section.name}', where ${owners.get(hidden.name)} declares '${hidden.name}.${shadowed}'`);
    }
  }

  sections(): ConfigSection[] {
    return [...this.byName.values()];
  }

  /**
   * The declaration of `key`, or undefined when no section of its name is claimed. A plugin may claim a sub-section
   * of another's (`server.sse`): the longest claimed name that `key` starts with decides. An unknown key in a
   * claimed section is an error naming it, unless `partial` (only some of the plugins are known, and one not yet
   * loaded may claim the key's sub-section). `caseInsensitive` serves environment variables.
   */
  find(key: string, source: string, caseInsensitive = false, partial = false): DeclaredKey | undefined {
    const section = this.sectionOf(caseInsensitive ? key.toLowerCase() : key);
    if (!section) return undefined;
    const relative = key.slice(section.name.length + 1);
    if (!section.named) {
      const found = keyIn(section, relative, caseInsensitive);
      if (found) return { key: `${section.name}.${found.key}`, spec: found.spec };
      if (partial) return undefined;
      throw new StartupError(`Unknown configuration key '${key}' (from ${source}); see config/README.md for the keys of section '${section.name}'`);
    }
    // <section>.<name>.<key>: the name itself may hold dots, so each split point is tried.
    const parts = relative.split(".");
    for (let i = 1; i < parts.length; i++) {
      const found = keyIn(section, parts.slice(i).join("."), caseInsensitive);
      if (found) return { key: `${section.name}.${parts.slice(0, i).join(".")}.${found.key}`, spec: found.spec };
    }
    if (partial) return undefined;
    throw new StartupError(`Unknown configuration key '${key}' (from ${source}): expected ${section.name}.<name>.<key> with a key of config/README.md's section '${section.name}'`);
  }

  /** The claimed section with the longest name that `key` starts with, `except` one. */
  private sectionOf(key: string, except?: ConfigSection): ConfigSection | undefined {
    let longest: ConfigSection | undefined;
    for (const section of this.byName.values()) {
      if (section !== except && key.startsWith(`${section.name}.`) && section.name.length > (longest?.name.length ?? 0)) longest = section;
    }
    return longest;
  }

  /** Why `key` cannot be set (from a source that must name Sluice's keys only): no plugin claims its section. */
  unclaimed(key: string, source: string): StartupError {
    const claimed = this.sections().map((section) => section.name).join(", ");
    return new StartupError(`Configuration key '${key}' (from ${source}) is in section '${key.split(".", 1)[0]}', which no loaded plugin declares (declared: ${claimed})`);
  }
}

function keyIn(section: ConfigSection, relative: string, caseInsensitive: boolean): DeclaredKey | undefined {
  const same = (a: string, b: string) => (caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b);
  const declared = Object.keys(section.keys).find((key) => same(key, relative));
  if (declared !== undefined) return { key: declared, spec: section.keys[declared] };
  const open = Object.keys(section.open).find((prefix) => relative.length > prefix.length && same(relative.slice(0, prefix.length), prefix));
  return open === undefined ? undefined : { key: open + relative.slice(open.length), spec: FREE_FORM };
}

/** A value as an error may show it: a secret's value never is. */
export function shownValue(key: string, value: unknown): string {
  return isSecretKey(key) ? HIDDEN : JSON.stringify(value) ?? "nothing";
}

/** The typed value of a raw one: strings from the environment and flags are parsed, lists split at commas. */
export function coerceValue({ key, spec }: DeclaredKey, raw: unknown, source: string): ConfigValue {
  const result = checked(spec, parsed(spec, raw));
  if ("mismatch" in result) throw new StartupError(`Configuration key '${key}' (from ${source}) ${result.mismatch}, got ${shownValue(key, raw)}`);
  return result.value;
}

function parsed(spec: KeySpec, raw: unknown): unknown {
  switch (spec.type) {
    case "string":
      return typeof raw === "number" || typeof raw === "boolean" ? String(raw) : raw;
    case "integer":
    case "number":
      return typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
    case "boolean":
      return raw === "true" ? true : raw === "false" ? false : raw;
    case "string-list":
      return typeof raw === "string" ? raw.split(",").map((item) => item.trim()).filter((item) => item !== "") : raw;
  }
}
