/** The `broker.*` section the embedded broker declares, and the BrokerOptions it gives. */
import path from "node:path";
import type { JSONWebKeySet } from "jose";
import type { ConfigReader } from "../../kernel/config/config-reader";
import { configSection } from "../../kernel/config/config-schema";
import type { SluiceConfig } from "../../kernel/config/sluice-config";
import { StartupError } from "../../kernel/errors";
import { readConfiguredFile } from "../../kernel/http/configured-file";
import { isSaslMechanism, SASL_MECHANISMS } from "../kafka-protocol/sasl/sasl-mechanisms";
import type { BrokerOptions, BrokerTls } from "./broker";
import type { OAuthBearerValidation } from "./sasl/oauthbearer-exchange";
import type { BrokerSasl } from "./sasl/sasl-server";
import { parseSaslUsers } from "./sasl/sasl-users";
import { AclEntryError, parseAclEntries } from "./acl/acl-entries";
import type { BrokerAuthorizer } from "./broker";
import { SERVER_ASSIGNORS } from "./group/server-assignors";

export const BROKER_CONFIG = configSection({
  name: "broker",
  doc: "The embedded Kafka-protocol broker, started when no `streams.bootstrap.servers` is set (and by `sluice broker`).",
  keys: {
    listener: { type: "string", default: "127.0.0.1", doc: "Address the embedded broker listens on." },
    port: { type: "integer", default: 9092, min: 0, max: 65_535, doc: "Embedded broker port; 0 picks a free port." },
    "data.dir": { type: "string", default: ".sluice/broker", doc: "Directory of the embedded broker's logs and committed offsets." },
    storage: { type: "string", default: "file", choices: ["file", "memory"], doc: "file: durable logs under broker.data.dir; memory: nothing kept (tests)." },
    "auto.create.topics": { type: "boolean", default: true, doc: "Create a topic when a client asks for metadata of an unknown one." },
    "num.partitions": { type: "integer", default: 1, doc: "Partitions of auto-created topics." },
    "max.request.bytes": { type: "integer", default: 104_857_600, doc: "Largest request frame; a larger one closes the connection." },
    "retention.ms": { type: "integer", default: 604_800_000, doc: "Delete log segments older than this; -1 keeps them forever." },
    "retention.bytes": { type: "integer", default: -1, doc: "Trim each partition to about this many bytes; -1 is unbounded." },
    "segment.bytes": { type: "integer", default: 134_217_728, doc: "Size at which a partition rolls to a new segment file." },
    "flush.messages": {
      type: "integer",
      default: -1,
      doc: "Sync (fsync) a partition's log file once this many records are written to it and not synced, before acknowledging them (Kafka's `log.flush.interval.messages`); 1 syncs every produce request. -1: never, the OS writes back (Kafka's default). Committed offsets are not synced.",
    },
    "transaction.max.timeout.ms": { type: "integer", default: 900_000, doc: "The longest `transaction.timeout.ms` a transactional producer may ask for (Kafka's `transaction.max.timeout.ms`); a longer one is refused with INVALID_TRANSACTION_TIMEOUT." },
    "group.consumer.session.timeout.ms": { type: "integer", default: 45_000, min: 1, doc: "The consumer group protocol (KIP-848, `group.protocol=consumer`): a member not heard from this long leaves the group and its partitions move (Kafka's `group.consumer.session.timeout.ms`)." },
    "group.consumer.heartbeat.interval.ms": { type: "integer", default: 5_000, min: 1, doc: "How often members of the consumer group protocol heartbeat; the coordinator tells them (Kafka's `group.consumer.heartbeat.interval.ms`)." },
    "group.consumer.assignors": { type: "string-list", default: ["uniform", "range"], doc: "The consumer group protocol's server-side assignors members may name (`group.remote.assignor`): `uniform` (even and sticky) and `range`; the first is the default (Kafka's `group.consumer.assignors`)." },
    "security.protocol": { type: "string", default: "PLAINTEXT", choices: ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"], doc: "`PLAINTEXT`; `SSL` serves TLS with `broker.ssl.*`; `SASL_PLAINTEXT` and `SASL_SSL` authenticate clients with `broker.sasl.*` first." },
    "ssl.certificate.location": { type: "string", default: "", doc: "PEM file of the broker's certificate (`SSL`, `SASL_SSL`)." },
    "ssl.key.location": { type: "string", default: "", doc: "PEM file of the broker certificate's private key (`SSL`, `SASL_SSL`)." },
    "ssl.ca.location": { type: "string", default: "", doc: "PEM file of the CA of client certificates; when set, clients must present one signed by it (mutual TLS)." },
    "sasl.mechanisms": { type: "string-list", default: ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"], doc: "SASL mechanisms the broker enables: `PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512`, `OAUTHBEARER`." },
    "sasl.users": { type: "string", default: "", doc: "Users of PLAIN and SCRAM: `name:password` pairs, comma-separated, or `@FILE` (one pair per line); kept as salted SCRAM keys." },
    "sasl.oauthbearer.jwks.endpoint.url": { type: "string", default: "", doc: "OAUTHBEARER: the JSON Web Key Set that verifies tokens: an http(s) URL, or a file (path or `file:` URL) read at startup." },
    "sasl.oauthbearer.expected.issuer": { type: "string", default: "", doc: "OAUTHBEARER: required `iss` of tokens; empty: not checked." },
    "sasl.oauthbearer.expected.audience": { type: "string", default: "", doc: "OAUTHBEARER: required `aud` of tokens; empty: not checked." },
    "connections.max.reauth.ms": { type: "integer", default: 0, doc: "Longest SASL session (shorter if the OAUTHBEARER token expires first); clients must authenticate again before it ends. 0: no limit." },
    "sasl.server.max.receive.size": { type: "integer", default: 524_288, doc: "Largest frame a SASL client may send before it has authenticated; a larger one closes the connection at once, before it is read." },
    "sasl.plain.check.concurrency": { type: "integer", default: 2, doc: "PLAIN: password checks (PBKDF2, on libuv's thread pool, which file I/O and the HTTP side share) that run at once across all connections." },
    "sasl.plain.check.queue.size": { type: "integer", default: 32, doc: "PLAIN: logins waiting for a password check; past it a login fails at once, unchecked, as a failed authentication." },
    "connection.failed.authentication.delay.ms": { type: "integer", default: 100, doc: "How long the answer to a failed SASL authentication (and the close after it) waits; other connections are not held up." },
    "max.connections": { type: "integer", default: -1, doc: "Connections the broker keeps at most; more are closed as they arrive. -1: half the process's open-file limit (unbounded where it cannot be read), leaving descriptors to the logs, stores and HTTP server." },
    "max.connections.per.ip": { type: "integer", default: 2_147_483_647, doc: "Connections one client address may hold at most; more are closed as they arrive." },
    "connections.max.idle.ms": { type: "integer", default: 600_000, doc: "Close connections that send and receive nothing for this long (a request in progress keeps its connection). -1: never." },
    "max.partitions": { type: "integer", default: 4000, doc: "Partitions the broker keeps at most, all topics together (each holds open files); CreateTopics, CreatePartitions and auto-creation past it fail with POLICY_VIOLATION. One CreateTopics request adds at most 10,000 (as Kafka). -1: unbounded." },
    authorizer: { type: "string", default: "auto", choices: ["auto", "acl", "none"], doc: "`acl`: every request is checked against ACLs (`broker.acls`, and those created with CreateAcls); `none`: every client may do everything; `auto`: `acl` when clients authenticate (`SASL_*`, or `SSL` with `broker.ssl.ca.location`), else `none`." },
    "super.users": { type: "string", default: "", doc: "Principals allowed everything, `;`-separated: `User:admin;User:CN=ops,O=Example`." },
    "allow.everyone.if.no.acl.found": { type: "boolean", default: false, doc: "With the ACL authorizer, let everyone use a resource that no ACL names." },
    acls: { type: "string", default: "", doc: "ACLs, `;`-separated or one per line, or `@FILE` (one per line, `#` comments). Each is `ALLOW` or `DENY`, a principal, operations (comma-separated), `TYPE[:name]` (TOPIC, GROUP, CLUSTER or TRANSACTIONAL_ID; the name `*` is every one), then optionally `PREFIXED` and `FROM <host>`: `ALLOW User:app READ,WRITE TOPIC:app- PREFIXED`." },
    worker: { type: "boolean", default: true, doc: "Run the embedded broker in its own worker thread." },
  },
});

type BrokerSettings = ConfigReader<typeof BROKER_CONFIG.keys>;

export function brokerOptionsFrom(config: SluiceConfig, root: string): BrokerOptions {
  const broker = config.of(BROKER_CONFIG);
  const orNull = (value: number) => (value < 0 ? null : value);
  const protocol = broker.get("security.protocol");
  const maxConnections = broker.get("max.connections");
  return {
    listener: broker.get("listener"),
    port: broker.get("port"),
    storage: broker.get("storage"),
    dataDir: path.resolve(root, broker.get("data.dir")),
    autoCreateTopics: broker.get("auto.create.topics"),
    numPartitions: broker.get("num.partitions"),
    maxRequestBytes: broker.get("max.request.bytes"),
    saslMaxReceiveBytes: positive(broker.get("sasl.server.max.receive.size"), "broker.sasl.server.max.receive.size"),
    maxConnections: maxConnections === -1 ? undefined : positive(maxConnections, "broker.max.connections"),
    maxConnectionsPerIp: positive(broker.get("max.connections.per.ip"), "broker.max.connections.per.ip"),
    connectionsMaxIdleMs: Math.max(broker.get("connections.max.idle.ms"), 0),
    maxPartitions: orNull(broker.get("max.partitions")),
    retentionMs: orNull(broker.get("retention.ms")),
    retentionBytes: orNull(broker.get("retention.bytes")),
    segmentBytes: broker.get("segment.bytes"),
    flushMessages: flushMessages(broker.get("flush.messages")),
    consumerGroupSessionTimeoutMs: broker.get("group.consumer.session.timeout.ms"),
    consumerGroupHeartbeatIntervalMs: broker.get("group.consumer.heartbeat.interval.ms"),
    consumerGroupAssignors: consumerGroupAssignors(broker.get("group.consumer.assignors")),
    transactionMaxTimeoutMs: positive(broker.get("transaction.max.timeout.ms"), "broker.transaction.max.timeout.ms"),
    tls: protocol.endsWith("SSL") ? brokerTls(broker, root, protocol) : undefined,
    sasl: protocol.startsWith("SASL_") ? brokerSasl(broker, root, protocol) : undefined,
    authorizer: authorizerOn(broker, protocol) ? brokerAuthorizer(broker, root) : undefined,
  };
}

function flushMessages(value: number): number | null {
  if (value === -1) return null;
  if (value < 1) throw new StartupError(`broker.flush.messages must be -1 (never) or at least 1, got ${value}`);
  return value;
}

function consumerGroupAssignors(names: readonly string[]): string[] {
  const known = SERVER_ASSIGNORS.map(({ name }) => name);
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0 || names.length === 0) throw new StartupError(`broker.group.consumer.assignors: ${unknown.length > 0 ? `${unknown.join(", ")} unknown` : "empty"}; choose among ${known.join(", ")}`);
  return [...names];
}

function positive(value: number, key: string): number {
  if (value < 1) throw new StartupError(`${key} must be at least 1, got ${value}`);
  return value;
}


/** `auto`: ACLs as soon as clients prove who they are, since only then do principals tell users apart. */
function authorizerOn(broker: BrokerSettings, protocol: string): boolean {
  const choice = broker.get("authorizer");
  if (choice !== "auto") return choice === "acl";
  return protocol.startsWith("SASL_") || (protocol === "SSL" && broker.get("ssl.ca.location") !== "");
}

function brokerAuthorizer(broker: BrokerSettings, root: string): BrokerAuthorizer {
  const setting = broker.get("acls");
  const source = setting.startsWith("@") ? path.resolve(root, setting.slice(1)) : undefined;
  const text = source === undefined ? setting : readConfiguredFile(source, "broker.acls").toString("utf8");
  let acls;
  try {
    acls = parseAclEntries(text);
  } catch (error) {
    if (error instanceof AclEntryError) throw new StartupError(`${source === undefined ? "broker.acls" : `${source} (broker.acls)`}: ${error.message}`);
    throw error;
  }
  const superUsers = broker
    .get("super.users")
    .split(";")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  const malformed = superUsers.find((name) => !/^[A-Za-z]+:.+$/.test(name));
  if (malformed !== undefined) throw new StartupError(`broker.super.users: '${malformed}' is not Type:name (User:admin)`);
  return { acls, superUsers, allowEveryoneIfNoAclFound: broker.get("allow.everyone.if.no.acl.found") };
}

type FileKey = "ssl.certificate.location" | "ssl.key.location" | "ssl.ca.location";

/** The text of the file a key names (relative to the root), or undefined when the key is empty and may be. */
function readFileOf(broker: BrokerSettings, root: string, key: FileKey, neededFor?: string): string | undefined {
  const file = broker.get(key);
  if (file === "") {
    if (neededFor) throw new StartupError(`broker.${key} is needed with ${neededFor}`);
    return undefined;
  }
  return readConfiguredFile(path.resolve(root, file), `broker.${key}`).toString("utf8");
}

/** The certificate the broker serves with SSL or SASL_SSL; client certificates are required when a CA is given. */
function brokerTls(broker: BrokerSettings, root: string, protocol: string): BrokerTls {
  const neededFor = `broker.security.protocol=${protocol}`;
  return {
    cert: readFileOf(broker, root, "ssl.certificate.location", neededFor)!,
    key: readFileOf(broker, root, "ssl.key.location", neededFor)!,
    ca: readFileOf(broker, root, "ssl.ca.location"),
  };
}

function brokerSasl(broker: BrokerSettings, root: string, protocol: string): BrokerSasl {
  const mechanisms = broker.get("sasl.mechanisms").map((name) => name.toUpperCase());
  const unknown = mechanisms.filter((name) => !isSaslMechanism(name));
  if (unknown.length > 0) throw new StartupError(`broker.sasl.mechanisms: ${unknown.join(", ")} not supported; choose among ${SASL_MECHANISMS.join(", ")}`);
  if (mechanisms.length === 0) throw new StartupError(`broker.sasl.mechanisms is empty with broker.security.protocol=${protocol}`);
  const users = saslUsers(broker.get("sasl.users"), root);
  const passwordMechanisms = mechanisms.filter((name) => name !== "OAUTHBEARER");
  if (passwordMechanisms.length > 0 && users.length === 0) throw new StartupError(`broker.sasl.users names no user, which ${passwordMechanisms.join(", ")} need`);
  return {
    mechanisms: mechanisms.filter(isSaslMechanism),
    users,
    oauthbearer: mechanisms.includes("OAUTHBEARER") ? oauthBearerValidation(broker, root) : undefined,
    maxReauthMs: broker.get("connections.max.reauth.ms"),
    failedAuthenticationDelayMs: Math.max(broker.get("connection.failed.authentication.delay.ms"), 0),
    plainCheckConcurrency: positive(broker.get("sasl.plain.check.concurrency"), "broker.sasl.plain.check.concurrency"),
    plainCheckQueueSize: Math.max(broker.get("sasl.plain.check.queue.size"), 0),
  };
}

/** `name:password` pairs, comma-separated, or `@FILE` naming a file of one pair per line. */
function saslUsers(setting: string, root: string) {
  if (!setting.startsWith("@")) return parseSaslUsers(setting.split(","), "broker.sasl.users");
  const file = path.resolve(root, setting.slice(1));
  return parseSaslUsers(readConfiguredFile(file, "broker.sasl.users").toString("utf8").split(/\r?\n/), `${file} (broker.sasl.users)`);
}

/** The key set: fetched from an http(s) URL by the broker, or read from a file (a path or a file: URL) now. */
function oauthBearerValidation(broker: BrokerSettings, root: string): OAuthBearerValidation {
  const key = "broker.sasl.oauthbearer.jwks.endpoint.url";
  const location = broker.get("sasl.oauthbearer.jwks.endpoint.url");
  if (location === "") throw new StartupError(`${key} is needed with SASL mechanism OAUTHBEARER`);
  const expected = (value: string) => (value === "" ? undefined : value);
  const base = { issuer: expected(broker.get("sasl.oauthbearer.expected.issuer")), audience: expected(broker.get("sasl.oauthbearer.expected.audience")) };
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
