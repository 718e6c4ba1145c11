/** The configuration map of API.md §1.3: flat, sorted, secrets hidden. */
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";

const SECRET_SUFFIXES = ["password", "secret", "sasl.jaas.config", "token", "key.password", "credentials"];

export function configView(config: Readonly<Record<string, ConfigValue>>): Record<string, ConfigValue> {
  const view: Record<string, ConfigValue> = {};
  for (const key of Object.keys(config).sort()) {
    const lower = key.toLowerCase();
    view[key] = SECRET_SUFFIXES.some((suffix) => lower.endsWith(suffix)) ? "[hidden]" : config[key];
  }
  return view;
}
