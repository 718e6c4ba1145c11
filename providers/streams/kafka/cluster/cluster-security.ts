/**
 * How an application's clients reach its Kafka cluster, under Kafka's own setting names. `security.protocol`:
 * PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.
 * TLS (SSL, SASL_SSL): `ssl.ca.location` (the CA to trust; default: the system's), `ssl.certificate.location` and
 * `ssl.key.location` (a client certificate for mutual TLS), `ssl.key.password`, and
 * `ssl.endpoint.identification.algorithm` (`https`, the default, checks the broker's name against its certificate;
 * empty does not).
 * SASL (SASL_*): `sasl.mechanism` PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512 with `sasl.username` and `sasl.password`, or
 * OAUTHBEARER with a token from `sasl.oauthbearer.token.provider` (a registered name, or module#export) or from a client-credentials
 * endpoint (`sasl.oauthbearer.token.endpoint.url`, `.client.id`, `.client.secret`, `.scope`, librdkafka's names),
 * and `sasl.oauthbearer.extensions`. Credentials may be `${env:NAME}` or `${file:PATH}` (secret-references.ts).
 * A setting that cannot be used stops the application with an error naming it.
 */
import fs from "node:fs";
import type { ConnectionOptions as TlsOptions } from "node:tls";
import type { StreamsSettings } from "../../streams-config";
import { clientCredentialsToken, OAuthBearerTokens, type BearerToken, type BrokerSecurity, type KafkaEndpoint, type SaslSettings } from "../../../kafka-client";
import { checkExtension, isSaslMechanism, SASL_MECHANISMS } from "../../../kafka-protocol";
import type { NamedCodeLookup } from "../../../../kernel/contracts/streams/named-code";
import { namedCode } from "../../code/named-code-registry";
import { resolveSecret } from "./secret-references";

/** Where the cluster is and how an application's clients reach it (TLS, SASL, metadata.max.age.ms). */
export function clusterEndpoint(bootstrapServers: string[], config: StreamsSettings, code?: NamedCodeLookup): KafkaEndpoint {
  return { bootstrapServers, ...clusterSecurity(config, code), metadataMaxAgeMs: config.get("metadata.max.age.ms") };
}

/** Validated against its declared choices when loaded. */
export function clusterSecurity(config: StreamsSettings, code?: NamedCodeLookup): BrokerSecurity {
  const protocol = config.get("security.protocol");
  return {
    tls: protocol.endsWith("SSL") ? clusterTls(config) : undefined,
    sasl: protocol.startsWith("SASL_") ? clusterSasl(config, protocol, code) : undefined,
  };
}

function clusterTls(config: StreamsSettings): TlsOptions {
  const read = (key: "ssl.ca.location" | "ssl.certificate.location" | "ssl.key.location"): Buffer | undefined => {
    const file = config.get(key);
    if (file === "") return undefined;
    try {
      return fs.readFileSync(file);
    } catch (error) {
      throw new Error(`${key}: cannot read '${file}': ${(error as Error).message}`);
    }
  };
  const password = resolveSecret("ssl.key.password", config.get("ssl.key.password"));
  const tls: TlsOptions = { ca: read("ssl.ca.location"), cert: read("ssl.certificate.location"), key: read("ssl.key.location"), passphrase: password === "" ? undefined : password };
  if (config.get("ssl.endpoint.identification.algorithm") === "") tls.checkServerIdentity = () => undefined;
  return tls;
}

function clusterSasl(config: StreamsSettings, protocol: string, code: NamedCodeLookup | undefined): SaslSettings {
  const mechanism = config.get("sasl.mechanism").toUpperCase();
  const choices = `one of ${SASL_MECHANISMS.join(", ")}`;
  if (mechanism === "") throw new Error(`sasl.mechanism is needed with security.protocol=${protocol}: ${choices}`);
  if (!isSaslMechanism(mechanism)) throw new Error(`sasl.mechanism ${mechanism} is not supported: ${choices}`);
  const credential = (key: "sasl.username" | "sasl.password" | "sasl.oauthbearer.client.id" | "sasl.oauthbearer.client.secret", required: boolean): string => {
    const value = resolveSecret(key, config.get(key));
    if (required && value === "") throw new Error(`${key} is needed with sasl.mechanism=${mechanism}`);
    return value;
  };
  if (mechanism !== "OAUTHBEARER") return { mechanism, username: credential("sasl.username", true), password: credential("sasl.password", true) };
  const provider = config.get("sasl.oauthbearer.token.provider");
  const endpoint = config.get("sasl.oauthbearer.token.endpoint.url");
  if ((provider === "") === (endpoint === "")) throw new Error("sasl.mechanism=OAUTHBEARER needs either sasl.oauthbearer.token.provider or sasl.oauthbearer.token.endpoint.url");
  let source: () => Promise<BearerToken>;
  if (provider !== "") source = tokenProvider(provider, code);
  else {
    const credentials = { endpoint, clientId: credential("sasl.oauthbearer.client.id", true), clientSecret: credential("sasl.oauthbearer.client.secret", true), scope: config.get("sasl.oauthbearer.scope") || undefined };
    source = () => clientCredentialsToken(credentials);
  }
  return { mechanism, token: new OAuthBearerTokens(source).token, extensions: extensionsOf(config.get("sasl.oauthbearer.extensions")) };
}

/** A registered name or `module#export`: a function returning (or resolving to) a token, or `{ value, expiresAt }` (epoch ms). */
function tokenProvider(reference: string, code: NamedCodeLookup | undefined): () => Promise<BearerToken> {
  let provide: unknown;
  try {
    provide = namedCode("sasl.oauthbearer.token.provider", reference, code);
  } catch (error) {
    // Node's message goes on with the require stack.
    throw new Error(`sasl.oauthbearer.token.provider '${reference}' cannot be loaded: ${(error as Error).message.split("\n")[0]}`);
  }
  if (typeof provide !== "function") throw new Error(`sasl.oauthbearer.token.provider '${reference}' is not a function`);
  return async () => {
    const given: unknown = await (provide as () => unknown)();
    return typeof given === "string" ? { value: given } : (given as BearerToken);
  };
}

/** `key=value` pairs, comma-separated, as librdkafka's sasl.oauthbearer.extensions. */
function extensionsOf(text: string): Map<string, string> {
  const extensions = new Map<string, string>();
  for (const pair of text.split(",").map((part) => part.trim()).filter((part) => part !== "")) {
    const equals = pair.indexOf("=");
    if (equals <= 0) throw new Error(`sasl.oauthbearer.extensions: '${pair}' is not key=value`);
    const [key, value] = [pair.slice(0, equals), pair.slice(equals + 1)];
    try {
      checkExtension(key, value);
    } catch (error) {
      throw new Error(`sasl.oauthbearer.extensions: ${(error as Error).message}`);
    }
    extensions.set(key, value);
  }
  return extensions;
}
