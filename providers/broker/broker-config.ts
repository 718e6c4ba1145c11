/** BrokerOptions from Sluice's `broker.*` configuration keys. */
import path from "node:path";
import type { JSONWebKeySet } from "jose";
import type { SluiceConfig } from "../../kernel/config/sluice-config";
import { StartupError } from "../../kernel/errors";
import { readConfiguredFile } from "../../kernel/http/configured-file";
import { isSaslMechanism, SASL_MECHANISMS } from "../kafka-protocol/sasl/sasl-mechanisms";
import type { BrokerOptions, BrokerTls } from "./broker";
import type { OAuthBearerValidation } from "./sasl/oauthbearer-exchange";
import type { BrokerSasl } from "./sasl/sasl-server";
import { parseSaslUsers } from "./sasl/sasl-users";

export function brokerOptionsFrom(config: SluiceConfig, root: string): BrokerOptions {
  const orNull = (value: number) => (value < 0 ? null : value);
  const protocol = config.string("broker.security.protocol");
  return {
    listener: config.string("broker.listener"),
    port: config.number("broker.port"),
    storage: config.string("broker.storage") as "file" | "memory",
    dataDir: path.resolve(root, config.string("broker.data.dir")),
    autoCreateTopics: config.boolean("broker.auto.create.topics"),
    numPartitions: config.number("broker.num.partitions"),
    maxRequestBytes: config.number("broker.max.request.bytes"),
    retentionMs: orNull(config.number("broker.retention.ms")),
    retentionBytes: orNull(config.number("broker.retention.bytes")),
    segmentBytes: config.number("broker.segment.bytes"),
    tls: protocol.endsWith("SSL") ? brokerTls(config, root, protocol) : undefined,
    sasl: protocol.startsWith("SASL_") ? brokerSasl(config, root, protocol) : undefined,
  };
}

/** The text of the file a key names (relative to the root), or undefined when the key is empty and may be. */
function readFileOf(config: SluiceConfig, root: string, key: string, neededFor?: string): string | undefined {
  const file = config.string(key);
  if (file === "") {
    if (neededFor) throw new StartupError(`${key} is needed with ${neededFor}`);
    return undefined;
  }
  return readConfiguredFile(path.resolve(root, file), key).toString("utf8");
}

/** The certificate the broker serves with SSL or SASL_SSL; client certificates are required when a CA is given. */
function brokerTls(config: SluiceConfig, root: string, protocol: string): BrokerTls {
  const neededFor = `broker.security.protocol=${protocol}`;
  return {
    cert: readFileOf(config, root, "broker.ssl.certificate.location", neededFor)!,
    key: readFileOf(config, root, "broker.ssl.key.location", neededFor)!,
    ca: readFileOf(config, root, "broker.ssl.ca.location"),
  };
}

function brokerSasl(config: SluiceConfig, root: string, protocol: string): BrokerSasl {
  const mechanisms = config.list("broker.sasl.mechanisms").map((name) => name.toUpperCase());
  const unknown = mechanisms.filter((name) => !isSaslMechanism(name));
  if (unknown.length > 0) throw new StartupError(`broker.sasl.mechanisms: ${unknown.join(", ")} not supported; choose among ${SASL_MECHANISMS.join(", ")}`);
  if (mechanisms.length === 0) throw new StartupError(`broker.sasl.mechanisms is empty with broker.security.protocol=${protocol}`);
  const users = saslUsers(config.string("broker.sasl.users"), root);
  const passwordMechanisms = mechanisms.filter((name) => name !== "OAUTHBEARER");
  if (passwordMechanisms.length > 0 && users.length === 0) throw new StartupError(`broker.sasl.users names no user, which ${passwordMechanisms.join(", ")} need`);
  return {
    mechanisms: mechanisms.filter(isSaslMechanism),
    users,
    oauthbearer: mechanisms.includes("OAUTHBEARER") ? oauthBearerValidation(config, root) : undefined,
    maxReauthMs: config.number("broker.connections.max.reauth.ms"),
  };
}

/** `name:password` pairs, comma-separated, or `@FILE` naming a file of one pair per line. */
function saslUsers(setting: string, root: string) {
  if (!setting.startsWith("@")) return parseSaslUsers(setting.split(","), "broker.sasl.users");
  const file = path.resolve(root, setting.slice(1));
  return parseSaslUsers(readConfiguredFile(file, "broker.sasl.users").toString("utf8").split(/\r?\n/), `${file} (broker.sasl.users)`);
}

/** The key set: fetched from an http(s) URL by the broker, or read from a file (a path or a file: URL) now. */
function oauthBearerValidation(config: SluiceConfig, root: string): OAuthBearerValidation {
  const key = "broker.sasl.oauthbearer.jwks.endpoint.url";
  const location = config.string(key);
  if (location === "") throw new StartupError(`${key} is needed with SASL mechanism OAUTHBEARER`);
  const expected = (name: string) => config.optionalString(`broker.sasl.oauthbearer.expected.${name}`);
  const base = { issuer: expected("issuer"), audience: expected("audience") };
  if (/^https?:\/\//.test(location)) return { jwks: location, ...base };
  const file = path.resolve(root, location.startsWith("file:") ? new URL(location, "file:///").pathname : location);
  let jwks: unknown;
  try {
    jwks = JSON.parse(readConfiguredFile(file, key).toString("utf8"));
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw new StartupError(`${file} (${key}) is not JSON: ${(error as Error).message}`);
  }
  if (!Array.isArray((jwks as { keys?: unknown } | null)?.keys)) throw new StartupError(`${file} (${key}) is not a JSON Web Key Set (no "keys" array)`);
  return { jwks: jwks as JSONWebKeySet, ...base };
}
