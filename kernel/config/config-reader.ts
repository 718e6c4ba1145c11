/** Typed reads of declared keys: a key's validated value, else its declared default, as the type it declares. */
import type { ConfigKeys, ConfigValue, KeyValue } from "./config-schema";

export class ConfigReader<K extends ConfigKeys> {
  /** `values`: validated values by key relative to the section (`port`, `info.app.name`). */
  constructor(
    private readonly keys: K,
    private readonly values: Readonly<Record<string, ConfigValue>>,
  ) {}

  get<N extends keyof K & string>(name: N): KeyValue<K[N]> {
    // Validated against this very declaration when loaded, so the value is of the declared type.
    return (this.values[name] ?? this.keys[name].default) as KeyValue<K[N]>;
  }

  /** Every declared key with its value or default, and every other entry as given. */
  all(): Record<string, ConfigValue> {
    const all: Record<string, ConfigValue> = {};
    for (const [key, spec] of Object.entries(this.keys)) if (spec.default !== undefined) all[key] = spec.default;
    return Object.assign(all, this.values);
  }

  /** The free-form entries under an open prefix (`topic.`), the prefix removed, as strings. */
  entries(prefix: string): Record<string, string> {
    const picked: Record<string, string> = {};
    for (const [key, value] of Object.entries(this.values)) if (key.startsWith(prefix)) picked[key.slice(prefix.length)] = String(value);
    return picked;
  }
}
