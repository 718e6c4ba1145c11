/**
 * The `config` of a deploy request, checked as the configuration file's `applications.<application.id>.*` keys are
 * (the same declarations and coercion), plus the topology provider's own keys, which take a value of their
 * default's type. Every refusal is a 400 naming the field.
 *
 * A deploy request is not trusted configuration: it never names code, files, environment variables or directories
 * outside Sluice's own. A key that takes code takes a built-in or registered name only (and, being code, needs an
 * admin); a key that names a file is refused; a directory resolves under the trusted directory of its key; a
 * `${file:…}` or `${env:…}` reference is refused; a secret is taken only when deployments.json can keep it encrypted.
 * The topology's own keys and the open client keys never name a module either, since a topology may load what they say.
 * An instance sent to another destination than the trusted one brings its own credentials (inherited-credentials.ts).
 */
import path from "node:path";
import { ConfigDeclarations, coerceValue, shownValue } from "../../../kernel/config/config-validation";
import type { KeySpec } from "../../../kernel/config/config-schema";
import type { NamedCodeKind, NamedCodeLookup } from "../../../kernel/contracts/streams/named-code";
import type { ConfigValue, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { StartupError } from "../../../kernel/errors";
import { roleAllows, type Principal } from "../../../kernel/http/auth/principal";
import { badRequest, HttpError } from "../../../kernel/http/http-error";
import { isSecretKey } from "../../../kernel/secrets";
import { namesModule } from "../code/module-export";
import { refuseInheritedCredentialsElsewhere, type TrustedClientConfig } from "./inherited-credentials";
import { BUILTIN_SERDES } from "../serdes/builtin-serdes";
import { APPLICATION_KEYS, APPLICATIONS_CONFIG, AUTOSTART_KEY, DEPLOYMENTS_KEY_LOCATION } from "../streams-config";

/** Kafka's legal topic characters: the id names the group, the internal topics and the state directory. */
const APPLICATION_ID = /^[A-Za-z0-9._-]{1,200}$/;
const SOURCE = "the deploy request";
/** `${provider:name}`, Kafka's config-provider syntax, anywhere in a value. */
const REFERENCE = /\$\{[^}]*\}/;

const declarations = new ConfigDeclarations([{ owner: "the streams runtime", section: APPLICATIONS_CONFIG }]);

/** What a deploy may refer to, from the trusted configuration. */
export interface DeployPolicy {
  /** The code registered by name. */
  code: NamedCodeLookup;
  /** The trusted directory under which a deployed value of a directory key resolves (absolute). */
  directoryOf(key: string): string;
  /** deployments.json can keep secrets encrypted (`streams.deployments.key.location` is set). */
  secretsKept: boolean;
  /** The trusted configuration instance `id` of `provider` would run with: its destination and credentials. */
  trusted(id: string, provider: TopologyProvider): TrustedClientConfig;
}

export interface DeployedConfig {
  id: string;
  config: Record<string, ConfigValue>;
}

/** `caller`: who asks; naming code needs an admin. */
export function deployedConfig(provider: TopologyProvider, requested: Readonly<Record<string, unknown>>, policy: DeployPolicy, caller: Principal): DeployedConfig {
  const id = requested["application.id"];
  if (typeof id !== "string" || !APPLICATION_ID.test(id) || id === "." || id === "..") {
    throw badRequest(`Field 'config.application.id' must name the new instance: 1 to 200 of the characters a-z A-Z 0-9 . _ - (not '.' or '..'), got ${JSON.stringify(id) ?? "nothing"}`);
  }
  const config: Record<string, ConfigValue> = {};
  for (const [key, value] of Object.entries(requested)) {
    refuseReferences(key, value);
    if (key === "application.id") config[key] = id;
    else if (Object.hasOwn(APPLICATION_KEYS, key)) config[key] = trustedValue(key, APPLICATION_KEYS[key], declaredValue(provider, id, key, value), policy, caller);
    else if (Object.hasOwn(provider.config, key)) config[key] = refuseModules(provider, key, providerValue(provider, key, value));
    else config[key] = refuseModules(provider, key, declaredValue(provider, id, key, value));
    if (isSecretKey(key) && config[key] !== "" && !policy.secretsKept) {
      throw badRequest(
        `Field 'config.${key}' holds a secret, which deployments.json keeps only encrypted: set streams.${DEPLOYMENTS_KEY_LOCATION}, ` +
          `or give it in trusted configuration as applications.${id}.${key} (a \${env:…} or \${file:…} reference there)`,
      );
    }
  }
  refuseInheritedCredentialsElsewhere(config, policy.trusted(id, provider));
  return { id, config };
}

function refuseReferences(key: string, value: unknown): void {
  const values = Array.isArray(value) ? value : [value];
  if (values.some((item) => typeof item === "string" && REFERENCE.test(item))) {
    throw badRequest(`Field 'config.${key}' holds a \${…} reference: files and environment variables are resolved for trusted configuration (file, environment, command line) only`);
  }
}

/**
 * A key the runtime does not declare as code (a topology's own key, a `consumer.`/`producer.`/`admin.`/`topic.` one)
 * may still reach code that loads modules: a topology may hand its value to a serde, a partitioner or a callback.
 * So none of them may name a module either, unless the topology's own default does.
 */
function refuseModules(provider: TopologyProvider, key: string, value: ConfigValue): ConfigValue {
  const standard = provider.config[key];
  const given = (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === "string");
  const own = new Set((Array.isArray(standard) ? standard : [standard]).filter((item) => typeof item === "string"));
  const named = given.find((item) => namesModule(item) && !own.has(item));
  if (named !== undefined) {
    throw badRequest(
      `Field 'config.${key}' names a module (module#export), which topology '${provider.name}' could load: a deploy request never names a module; ` +
        `name code registered through META-INF/services/sluice.streams.NamedCode instead, got ${shownValue(key, named)}`,
    );
  }
  return value;
}

/** A declared key's value as a deploy may give it: code by registered name, no file, a directory under the trusted one. */
function trustedValue(key: string, spec: KeySpec, value: ConfigValue, policy: DeployPolicy, caller: Principal): ConfigValue {
  if (spec.type !== "string" || typeof value !== "string" || value === "") return value;
  if (spec.code !== undefined) return registeredCode(key, spec.code as NamedCodeKind, value, policy.code, caller);
  if (spec.path === "file") throw badRequest(`Field 'config.${key}' names a file, which only trusted configuration (file, environment, command line) may`);
  if (spec.path === "directory") {
    const base = policy.directoryOf(key);
    const resolved = path.resolve(base, value);
    if (resolved !== base && !resolved.startsWith(base + path.sep)) {
      throw badRequest(`Field 'config.${key}' must stay under ${base} (the trusted ${key}): give a path relative to it, without '..'`);
    }
    return resolved;
  }
  return value;
}

function registeredCode(key: string, kind: NamedCodeKind, value: string, code: NamedCodeLookup, caller: Principal): string {
  if (kind === "serde" && Object.hasOwn(BUILTIN_SERDES, value)) return value;
  const registered = code.names(kind);
  if (namesModule(value) || !registered.includes(value)) {
    const builtins = kind === "serde" ? Object.keys(BUILTIN_SERDES) : [];
    const choices = [...builtins, ...registered];
    throw badRequest(
      `Field 'config.${key}' must name a ${kind} registered through META-INF/services/sluice.streams.NamedCode${kind === "serde" ? " or a built-in one" : ""} ` +
        `(${choices.length > 0 ? choices.join(", ") : "none is registered"}); a deploy request never names a module, got ${shownValue(key, value)}`,
    );
  }
  if (!roleAllows(caller.role, "admin")) {
    throw new HttpError(403, `Field 'config.${key}' names code (${kind} '${value}'): deploying it needs role 'admin'; '${caller.name}' has role '${caller.role}'`);
  }
  return value;
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
