/** The configuration map of docs/api.md#configuration: flat, sorted, secrets hidden. */
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";
import { HIDDEN, isSecretKey } from "../../../kernel/secrets";

export function configView(config: Readonly<Record<string, ConfigValue>>): Record<string, ConfigValue> {
  const view: Record<string, ConfigValue> = {};
  for (const key of Object.keys(config).sort()) view[key] = isSecretKey(key) ? HIDDEN : config[key];
  return view;
}
