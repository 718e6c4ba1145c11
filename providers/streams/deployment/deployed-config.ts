/**
 * The `config` of a deploy request, checked as the configuration file's `applications.<application.id>.*` keys are
 * (the same declarations and coercion), plus the topology provider's own keys, which take a value of their
 * default's type. Every refusal is a 400 naming the field.
 */
import { ConfigDeclarations, coerceValue, shownValue } from "../../../kernel/config/config-validation";
import type { ConfigValue, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { StartupError } from "../../../kernel/errors";
import { badRequest } from "../../../kernel/http/http-error";
import { APPLICATIONS_CONFIG, AUTOSTART_KEY } from "../streams-config";

/** Kafka's legal topic characters: the id names the group, the internal topics and the state directory. */
const APPLICATION_ID = /^[A-Za-z0-9._-]{1,200}$/;
const SOURCE = "the deploy request";

const declarations = new ConfigDeclarations([{ owner: "the streams runtime", section: APPLICATIONS_CONFIG }]);

export interface DeployedConfig {
  id: string;
  config: Record<string, ConfigValue>;
}

export function deployedConfig(provider: TopologyProvider, requested: Readonly<Record<string, unknown>>): DeployedConfig {
  const id = requested["application.id"];
  if (typeof id !== "string" || !APPLICATION_ID.test(id) || id === "." || id === "..") {
    throw badRequest(`Field 'config.application.id' must name the new instance: 1 to 200 of the characters a-z A-Z 0-9 . _ - (not '.' or '..'), got ${JSON.stringify(id) ?? "nothing"}`);
  }
  const config: Record<string, ConfigValue> = {};
  for (const [key, value] of Object.entries(requested)) {
    if (key === "application.id") config[key] = id;
    else if (Object.hasOwn(provider.config, key)) config[key] = providerValue(provider, key, value);
    else config[key] = declaredValue(provider, id, key, value);
  }
  return { id, config };
}

function providerValue(provider: TopologyProvider, key: string, value: unknown): ConfigValue {
  const standard = provider.config[key];
  const list = (candidate: unknown) => Array.isArray(candidate) && candidate.every((item) => typeof item === "string");
  const fits = Array.isArray(standard) ? list(value) : typeof value === typeof standard;
  if (!fits) {
    const expected = Array.isArray(standard) ? "an array of strings" : `a ${typeof standard}`;
    throw badRequest(`Field 'config.${key}' must be ${expected}, as topology '${provider.name}' declares it, got ${shownValue(key, value)}`);
  }
  return value as ConfigValue;
}

function declaredValue(provider: TopologyProvider, id: string, key: string, value: unknown): ConfigValue {
  if (key === AUTOSTART_KEY) throw badRequest(`Field 'config.${key}' applies to the instances started at boot, not to a deployed one`);
  const declared = unlessRefused(() => declarations.find(`${APPLICATIONS_CONFIG.name}.${id}.${key}`, SOURCE), () => undefined);
  if (!declared) {
    const own = Object.keys(provider.config).sort().join(", ");
    throw badRequest(`Field 'config.${key}' is not a key of topology '${provider.name}' (its keys: ${own}) nor a streams key (config/README.md, section 'applications')`);
  }
  return unlessRefused(() => coerceValue(declared, value, SOURCE), (error) => {
    throw badRequest(`Field 'config.${key}': ${error.message}`);
  });
}

/** `read()`, or what `refused` makes of the StartupError it throws (configuration checks refuse with one). */
function unlessRefused<T>(read: () => T, refused: (error: StartupError) => T): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof StartupError) return refused(error);
    throw error;
  }
}
