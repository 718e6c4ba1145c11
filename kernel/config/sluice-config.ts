/** The validated configuration: a flat map of dotted keys, the defaults of every declared section filled in. */
import type { ConfigKeys, ConfigSection, ConfigValue } from "./config-schema";
import { ConfigReader } from "./config-reader";

export type { ConfigValue };
export type FlatConfig = Record<string, ConfigValue>;

export class SluiceConfig {
  private readonly values: Map<string, ConfigValue>;

  constructor(
    values: ReadonlyMap<string, ConfigValue>,
    sections: readonly ConfigSection[],
    /** One line per deprecated key that is set: the kernel logs them as warnings. */
    readonly deprecations: readonly string[] = [],
  ) {
    this.values = new Map(values);
    for (const section of sections) {
      if (section.named) continue;
      for (const [key, spec] of Object.entries(section.keys)) {
        const dotted = `${section.name}.${key}`;
        if (!this.values.has(dotted) && spec.default !== undefined) this.values.set(dotted, spec.default);
      }
    }
  }

  get(key: string): ConfigValue | undefined {
    return this.values.get(key);
  }

  /** Typed reads of a declared section: `config.of(BROKER_CONFIG).get("port")` is a number. */
  of<K extends ConfigKeys>(section: ConfigSection<K>): ConfigReader<K> {
    return new ConfigReader(section.keys, this.section(section.name));
  }

  /** Keys under `prefix.` with the prefix removed, sorted: `section("server")` → `{ port: 8080, ... }`. */
  section(prefix: string): FlatConfig {
    const start = `${prefix}.`;
    const entries = [...this.values]
      .filter(([key]) => key.startsWith(start))
      .map(([key, value]) => [key.slice(start.length), value] as const)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  }
}
