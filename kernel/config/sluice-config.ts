/** The validated configuration: a flat map of dotted keys, with typed defaults filled in. */
import { CONFIG_SCHEMA, type ConfigValue } from "../../config/schema";

export type { ConfigValue };
export type FlatConfig = Record<string, ConfigValue>;

export class SluiceConfig {
  private readonly values: Map<string, ConfigValue>;

  constructor(values: Map<string, ConfigValue>) {
    this.values = new Map(values);
    for (const spec of CONFIG_SCHEMA) {
      if (!this.values.has(spec.key) && spec.default !== undefined) this.values.set(spec.key, spec.default);
    }
  }

  get(key: string): ConfigValue | undefined {
    return this.values.get(key);
  }

  string(key: string): string {
    return String(this.required(key));
  }

  optionalString(key: string): string | undefined {
    const value = this.values.get(key);
    return value === undefined || value === "" ? undefined : String(value);
  }

  number(key: string): number {
    const value = this.required(key);
    if (typeof value !== "number") throw new TypeError(`Configuration key '${key}' is not a number`);
    return value;
  }

  boolean(key: string): boolean {
    return this.required(key) === true;
  }

  list(key: string): string[] {
    const value = this.values.get(key);
    return Array.isArray(value) ? value : value === undefined ? [] : [String(value)];
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

  private required(key: string): ConfigValue {
    const value = this.values.get(key);
    if (value === undefined) throw new TypeError(`Configuration key '${key}' has no value`);
    return value;
  }
}
