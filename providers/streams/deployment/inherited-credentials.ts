/**
 * A deployed instance inherits the credentials of the trusted configuration (`streams.*`, `applications.<id>.*`, its
 * topology provider's): SASL user and password, OAuth client id and secret, a token provider, the key's password,
 * any key that holds a secret. Those are meant for the trusted destination only, over the trusted transport, so a
 * deploy request that gives none of its own is refused when it sends the instance elsewhere (another
 * `bootstrap.servers` list or `sasl.oauthbearer.token.endpoint.url`) or less protected (TLS dropped from
 * `security.protocol`, or the broker's name no longer checked against its certificate): else whoever may deploy could
 * have Sluice hand the trusted secrets to a broker or token endpoint of their choosing, or to whoever sits on the
 * path. Admins too: a deploy request is never trusted configuration.
 */
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";
import { badRequest } from "../../../kernel/http/http-error";
import { isSecretKey } from "../../../kernel/secrets";

/** Where and how credentials go: the brokers, the token endpoint that takes the OAuth client's, and the transport. */
const DESTINATION_KEYS = ["bootstrap.servers", "sasl.oauthbearer.token.endpoint.url", "security.protocol", "ssl.endpoint.identification.algorithm"] as const;
const TLS_PROTOCOLS = new Set(["SSL", "SASL_SSL"]);
/** Credentials whose key names no secret. */
const IDENTITY_KEYS = new Set(["sasl.username", "sasl.oauthbearer.client.id"]);

/** The trusted configuration of one instance id: its destination and the credentials it would inherit. */
export interface TrustedClientConfig {
  /** `bootstrap.servers` as the instance would reach it without a deploy (the cluster named, or the embedded broker). */
  bootstrapServers: readonly string[];
  /** Every trusted key that applies to the instance (`streams.*`, its provider's, `applications.<id>.*`). */
  values: Readonly<Record<string, ConfigValue>>;
}

const isCredentialKey = (key: string) => !(DESTINATION_KEYS as readonly string[]).includes(key) && (IDENTITY_KEYS.has(key) || isSecretKey(key));
const given = (value: ConfigValue | undefined) => value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0);

/** `host:port` entries compared as a set: case, spaces, order and repeats do not make another destination. */
function serverSet(value: ConfigValue | readonly string[] | undefined): string {
  const entries = Array.isArray(value) ? value : String(value ?? "").split(",");
  return [...new Set(entries.map((entry) => String(entry).trim().toLowerCase()).filter(Boolean))].sort().join(",");
}

function endpoint(value: ConfigValue | undefined): string {
  const text = String(value ?? "").trim();
  try {
    return new URL(text).href;
  } catch {
    return text;
  }
}

/** The destination and transport keys `requested` changes away from the trusted configuration, or weakens. */
function changedDestinations(requested: Readonly<Record<string, ConfigValue>>, trusted: TrustedClientConfig): string[] {
  const changed: string[] = [];
  if (Object.hasOwn(requested, "bootstrap.servers") && serverSet(requested["bootstrap.servers"]) !== serverSet(trusted.bootstrapServers)) changed.push("bootstrap.servers");
  const url = "sasl.oauthbearer.token.endpoint.url";
  if (Object.hasOwn(requested, url) && endpoint(requested[url]) !== endpoint(trusted.values[url])) changed.push(url);
  const protocol = (values: Readonly<Record<string, ConfigValue>>) => String(values["security.protocol"] ?? "PLAINTEXT").trim().toUpperCase();
  if (Object.hasOwn(requested, "security.protocol") && TLS_PROTOCOLS.has(protocol(trusted.values)) && !TLS_PROTOCOLS.has(protocol(requested))) changed.push("security.protocol");
  const identification = "ssl.endpoint.identification.algorithm";
  if (Object.hasOwn(requested, identification) && String(requested[identification]).trim() === "" && String(trusted.values[identification] ?? "https").trim() !== "") changed.push(identification);
  return changed;
}

/** Refuses (400) a deploy that changes the destination while it would inherit trusted credentials. */
export function refuseInheritedCredentialsElsewhere(requested: Readonly<Record<string, ConfigValue>>, trusted: TrustedClientConfig): void {
  const changed = changedDestinations(requested, trusted);
  if (changed.length === 0) return;
  const inherited = Object.keys(trusted.values)
    .filter((key) => isCredentialKey(key) && given(trusted.values[key]) && !Object.hasOwn(requested, key))
    .sort();
  if (inherited.length === 0) return;
  throw badRequest(
    `${changed.map((key) => `Field 'config.${key}'`).join(" and ")} sends the instance elsewhere than the trusted configuration, or less protected, ` +
      `whose credentials it would inherit (${inherited.join(", ")}): credentials of the trusted configuration go only to its own destination; ` +
      `give the instance its own (set each of these keys in the deploy request, empty for none), or keep the trusted ${changed.join(" and ")}`,
  );
}
