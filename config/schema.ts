/**
 * Every configuration key Sluice knows, with its type, default and documentation. config/README.md is
 * generated from this table's content by hand; a test checks that every key here is documented there.
 */

export type ConfigType = "string" | "integer" | "number" | "boolean" | "string-list";
export type ConfigValue = string | number | boolean | string[];

export interface ConfigKeySpec {
  key: string;
  type: ConfigType;
  default?: ConfigValue;
  /** Allowed values for a string key. */
  choices?: readonly string[];
  doc: string;
}

/** Sections whose keys are validated: an unknown key in one of these stops startup. */
export const KNOWN_SECTIONS = ["server", "broker", "streams", "applications", "examples", "log", "plugins"] as const;

/** Keys under these prefixes are free-form strings (only their prefix is known). */
export const OPEN_PREFIXES = ["server.info.", "streams.consumer.", "streams.producer.", "streams.admin.", "streams.topic."] as const;

const STREAMS_KEYS: ConfigKeySpec[] = [
  { key: "bootstrap.servers", type: "string", doc: "Kafka brokers (host:port, comma-separated). Unset: Sluice starts its embedded broker." },
  { key: "application.server", type: "string", doc: "host:port other instances use to reach this one. Default: the HTTP server's listener:port." },
  { key: "state.dir", type: "string", default: ".sluice/state", doc: "Directory of the applications' local state stores." },
  { key: "default.key.serde", type: "string", default: "string", doc: "Key serde: string, json, long, int, double, bytes, or module#export." },
  { key: "default.value.serde", type: "string", default: "string", doc: "Value serde: string, json, long, int, double, bytes, or module#export." },
  { key: "num.partitions", type: "integer", default: 1, doc: "Partitions of the input and output topics the runtime creates when they are missing." },
  { key: "commit.interval.ms", type: "integer", default: 100, doc: "Longest time between commits of consumed offsets." },
  { key: "processing.error.policy", type: "string", default: "fail", choices: ["fail", "log_and_continue", "dead_letter"], doc: "What a deserialization or processing error does: put the application in ERROR, log it and skip the record, or write the record to dead.letter.topic and go on." },
  { key: "dead.letter.topic", type: "string", default: "", doc: "Topic of the records that failed with processing.error.policy=dead_letter. Empty: <application.id>-dlq." },
  { key: "restart.on.error", type: "string", default: "never", choices: ["never", "backoff"], doc: "What a failed application does: stay in ERROR until restarted, or restart by itself after a backoff." },
  { key: "restart.backoff.ms", type: "integer", default: 1_000, doc: "First wait before restart.on.error=backoff restarts a failed application; doubled after each failure that follows a restart." },
  { key: "restart.backoff.max.ms", type: "integer", default: 60_000, doc: "Longest wait between automatic restarts; a run that stays up longer counts as recovered." },
  { key: "security.protocol", type: "string", default: "PLAINTEXT", choices: ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"], doc: "How the applications reach the cluster: PLAINTEXT, SSL (TLS, with ssl.*), SASL_PLAINTEXT or SASL_SSL (SASL with sasl.*, over TLS)." },
  { key: "ssl.ca.location", type: "string", default: "", doc: "PEM file of the CA(s) that signed the brokers' certificates; empty: the system's." },
  { key: "ssl.certificate.location", type: "string", default: "", doc: "PEM file of the client certificate, for brokers that require one (mutual TLS)." },
  { key: "ssl.key.location", type: "string", default: "", doc: "PEM file of the client certificate's private key." },
  { key: "ssl.key.password", type: "string", default: "", doc: "Password of the private key, if it is encrypted (hidden in /config; ${env:NAME} or ${file:PATH})." },
  { key: "ssl.endpoint.identification.algorithm", type: "string", default: "https", choices: ["https", ""], doc: "https: check the broker's name against its certificate; empty: do not." },
  { key: "sasl.mechanism", type: "string", default: "", doc: "SASL mechanism with SASL_*: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512 or OAUTHBEARER." },
  { key: "sasl.username", type: "string", default: "", doc: "User of PLAIN and SCRAM (${env:NAME} or ${file:PATH})." },
  { key: "sasl.password", type: "string", default: "", doc: "Password of PLAIN and SCRAM (hidden in /config; ${env:NAME} or ${file:PATH})." },
  { key: "sasl.oauthbearer.token.provider", type: "string", default: "", doc: "OAUTHBEARER: module#export of a function returning a token, or { value, expiresAt }; asked again at 80% of its life." },
  { key: "sasl.oauthbearer.token.endpoint.url", type: "string", default: "", doc: "OAUTHBEARER: OAuth token endpoint asked with the client credentials grant (instead of a token provider)." },
  { key: "sasl.oauthbearer.client.id", type: "string", default: "", doc: "OAUTHBEARER: client id at the token endpoint (${env:NAME} or ${file:PATH})." },
  { key: "sasl.oauthbearer.client.secret", type: "string", default: "", doc: "OAUTHBEARER: client secret at the token endpoint (hidden in /config; ${env:NAME} or ${file:PATH})." },
  { key: "sasl.oauthbearer.scope", type: "string", default: "", doc: "OAUTHBEARER: scope asked of the token endpoint; empty: none." },
  { key: "sasl.oauthbearer.extensions", type: "string", default: "", doc: "OAUTHBEARER: SASL extensions sent with the token, key=value pairs comma-separated (Confluent Cloud: logicalCluster, identityPoolId)." },
  { key: "socket.connection.setup.timeout.ms", type: "integer", default: 10_000, doc: "How long the admin client (kafkajs) waits for a connection to a broker, TLS handshake included; Sluice's own client waits 10 s." },
  { key: "request.timeout.ms", type: "integer", default: 30_000, doc: "How long the admin client (kafkajs) waits for a broker's answer to a request." },
  { key: "replication.factor", type: "integer", default: -1, doc: "Replication factor of the topics the runtime creates; -1: the broker's default (default.replication.factor)." },
  { key: "processing.guarantee", type: "string", default: "at_least_once", choices: ["at_least_once", "exactly_once", "exactly_once_v2"], doc: "at_least_once, with exact state after a crash (stores and input positions commit together). exactly_once* is refused until supported." },
  { key: "compression.type", type: "string", default: "none", choices: ["none", "gzip", "snappy", "lz4", "zstd"], doc: "Codec of the record batches the application writes (outputs, changelogs, repartition topics). Every codec is read whatever this is." },
  { key: "stats.enable", type: "boolean", default: false, doc: "Log store statistics periodically." },
  { key: "stats.dumpPeriodSec", type: "integer", default: 60, doc: "Period of the store statistics log, in seconds." },
  { key: "log.dir", type: "string", default: "", doc: "Directory of the application's own log file; empty: no file." },
  { key: "log.maxFileSize", type: "integer", default: 10_485_760, doc: "Size in bytes at which the application's log file rotates." },
  { key: "leveldb.config.setter", type: "string", default: "", doc: "module#export of a function that tunes LevelDB options per store." },
  { key: "session.timeout.ms", type: "integer", default: 10_000, doc: "Consumer group session timeout." },
  { key: "heartbeat.interval.ms", type: "integer", default: 1_000, doc: "Consumer group heartbeat interval." },
  { key: "max.poll.interval.ms", type: "integer", default: 60_000, doc: "How long a rebalance waits for the members to join again (the group's rebalance timeout)." },
  { key: "fetch.max.wait.ms", type: "integer", default: 200, doc: "How long the broker may hold a fetch that finds no new records." },
  { key: "fetch.max.bytes", type: "integer", default: 10_485_760, doc: "Bound on the records of one fetch answer." },
  { key: "max.partition.fetch.bytes", type: "integer", default: 1_048_576, doc: "Bound on one partition's records in a fetch answer; a polled batch is at most this big." },
];

export const CONFIG_SCHEMA: ConfigKeySpec[] = [
  { key: "server.enable", type: "boolean", default: true, doc: "Serve the HTTP API." },
  { key: "server.listener", type: "string", default: "127.0.0.1", doc: "Address the HTTP server listens on." },
  { key: "server.port", type: "integer", default: 8080, doc: "HTTP port; 0 picks a free port (logged at startup)." },
  { key: "server.advertised.listener", type: "string", doc: "host or host:port other instances reach this server at (application.server). Default: the listener; the machine's hostname when the listener is a wildcard (0.0.0.0, ::)." },
  { key: "server.headless", type: "boolean", default: false, doc: "Refuse operations that change applications (restart, stop) with 403." },
  { key: "server.rest.extensions", type: "boolean", default: false, doc: "Load REST extensions (sluice.rest.RestExtension descriptors)." },
  { key: "server.body.limit", type: "integer", default: 1_048_576, doc: "Largest request body in bytes; larger ones get 413." },
  { key: "server.sse.keepalive.ms", type: "integer", default: 15_000, doc: "Interval of keep-alive comments on server-sent event streams." },
  { key: "server.sse.history.size", type: "integer", default: 1_000, doc: "Events each event stream keeps for clients that reconnect with Last-Event-ID." },
  { key: "server.sse.buffer.size", type: "integer", default: 1_000, doc: "Events buffered per subscriber; a slower subscriber loses its oldest ones." },
  { key: "server.query.timeout.ms", type: "integer", default: 30_000, doc: "Default query_timeout_ms of interactive queries." },
  { key: "server.health.liveness.max.lag.ms", type: "integer", default: 5_000, doc: "GET /health/liveness answers 503 once the event loop has been blocked longer than this within the last ten seconds." },
  { key: "server.operation.timeout.ms", type: "integer", default: 30_000, doc: "Longest time restart and stop wait for the application." },
  // HTTP security (TLS, authentication, authorization, CORS)
  { key: "server.ssl.enable", type: "boolean", default: false, doc: "Serve HTTPS instead of HTTP." },
  { key: "server.ssl.key.location", type: "string", default: "", doc: "PEM private key of the HTTPS server (re-read on SIGHUP)." },
  { key: "server.ssl.certificate.location", type: "string", default: "", doc: "PEM certificate (chain) of the HTTPS server (re-read on SIGHUP)." },
  { key: "server.ssl.ca.location", type: "string", default: "", doc: "PEM CA certificates that client certificates must chain to; also trusted for peer queries." },
  { key: "server.ssl.client.auth", type: "string", default: "none", choices: ["none", "requested", "required"], doc: "Ask clients for a certificate: none, requested (optional), required (the handshake fails without one)." },
  { key: "server.auth.mechanism", type: "string", default: "none", choices: ["none", "basic", "bearer", "mtls"], doc: "How requests authenticate; none lets everyone do everything." },
  { key: "server.auth.users.file", type: "string", default: "", doc: "basic: file of 'name:scrypt-hash:role' lines, written by `sluice passwd`." },
  { key: "server.auth.tokens.file", type: "string", default: "", doc: "bearer: file of '<sha256 hex of the token>:role[:name]' lines (opaque tokens)." },
  { key: "server.auth.jwt.jwks.url", type: "string", default: "", doc: "bearer: JWKS URL whose keys verify JWTs." },
  { key: "server.auth.jwt.public.key.location", type: "string", default: "", doc: "bearer: PEM public key that verifies JWTs (instead of a JWKS URL)." },
  { key: "server.auth.jwt.issuer", type: "string", default: "", doc: "bearer: required 'iss' of JWTs; empty: not checked." },
  { key: "server.auth.jwt.audience", type: "string", default: "", doc: "bearer: required 'aud' of JWTs; empty: not checked." },
  { key: "server.auth.jwt.roles.claim", type: "string", default: "roles", doc: "bearer: claim (dotted path) holding the role or roles; the strongest known one counts." },
  { key: "server.auth.mtls.roles", type: "string-list", default: [], doc: "mtls: 'name:role' items; name is a certificate's subject CN or a subject alternative name value." },
  { key: "server.auth.public.paths", type: "string-list", default: ["/health"], doc: "Paths served without authentication: exact, or as a prefix of '/'-separated sub-paths (/health covers /health/liveness)." },
  { key: "server.auth.peer.token.file", type: "string", default: "", doc: "File holding the shared instance credential that forwarded queries carry (every instance the same); empty: they carry the caller's Authorization." },
  { key: "server.auth.peer.ca.location", type: "string", default: "", doc: "PEM CA that other instances' certificates chain to; default: server.ssl.ca.location." },
  { key: "server.auth.failure.delay.ms", type: "integer", default: 100, doc: "Delay of the 401 of a failed login; it doubles with each failure from the same address within a minute." },
  { key: "server.auth.failure.delay.max.ms", type: "integer", default: 2_000, doc: "Longest delay of a failed login's 401." },
  { key: "server.cors.origins", type: "string-list", default: [], doc: "Origins allowed to call the API from a browser (CORS), or '*'; empty: CORS off." },
  { key: "broker.listener", type: "string", default: "127.0.0.1", doc: "Address the embedded broker listens on." },
  { key: "broker.port", type: "integer", default: 9092, doc: "Embedded broker port; 0 picks a free port." },
  { key: "broker.data.dir", type: "string", default: ".sluice/broker", doc: "Directory of the embedded broker's logs and committed offsets." },
  { key: "broker.storage", type: "string", default: "file", choices: ["file", "memory"], doc: "file: durable logs under broker.data.dir; memory: nothing kept (tests)." },
  { key: "broker.auto.create.topics", type: "boolean", default: true, doc: "Create a topic when a client asks for metadata of an unknown one." },
  { key: "broker.num.partitions", type: "integer", default: 1, doc: "Partitions of auto-created topics." },
  { key: "broker.max.request.bytes", type: "integer", default: 104_857_600, doc: "Largest request frame; a larger one closes the connection." },
  { key: "broker.retention.ms", type: "integer", default: 604_800_000, doc: "Delete log segments older than this; -1 keeps them forever." },
  { key: "broker.retention.bytes", type: "integer", default: -1, doc: "Trim each partition to about this many bytes; -1 is unbounded." },
  { key: "broker.segment.bytes", type: "integer", default: 134_217_728, doc: "Size at which a partition rolls to a new segment file." },
  { key: "broker.security.protocol", type: "string", default: "PLAINTEXT", choices: ["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"], doc: "PLAINTEXT; SSL serves TLS with broker.ssl.*; SASL_PLAINTEXT and SASL_SSL authenticate clients with broker.sasl.* first." },
  { key: "broker.ssl.certificate.location", type: "string", default: "", doc: "PEM file of the broker's certificate (SSL, SASL_SSL)." },
  { key: "broker.ssl.key.location", type: "string", default: "", doc: "PEM file of the broker certificate's private key (SSL, SASL_SSL)." },
  { key: "broker.ssl.ca.location", type: "string", default: "", doc: "PEM file of the CA of client certificates; when set, clients must present one signed by it (mutual TLS)." },
  { key: "broker.sasl.mechanisms", type: "string-list", default: ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"], doc: "SASL mechanisms the broker enables: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER." },
  { key: "broker.sasl.users", type: "string", default: "", doc: "Users of PLAIN and SCRAM: name:password pairs, comma-separated, or @FILE (one pair per line); kept as salted SCRAM keys." },
  { key: "broker.sasl.oauthbearer.jwks.endpoint.url", type: "string", default: "", doc: "OAUTHBEARER: the JSON Web Key Set that verifies tokens: an http(s) URL, or a file (path or file: URL) read at startup." },
  { key: "broker.sasl.oauthbearer.expected.issuer", type: "string", default: "", doc: "OAUTHBEARER: required 'iss' of tokens; empty: not checked." },
  { key: "broker.sasl.oauthbearer.expected.audience", type: "string", default: "", doc: "OAUTHBEARER: required 'aud' of tokens; empty: not checked." },
  { key: "broker.connections.max.reauth.ms", type: "integer", default: 0, doc: "Longest SASL session (shorter if the OAUTHBEARER token expires first); clients must authenticate again before it ends. 0: no limit." },
  { key: "broker.worker", type: "boolean", default: true, doc: "Run the embedded broker in its own worker thread." },
  ...STREAMS_KEYS.map((spec) => ({ ...spec, key: `streams.${spec.key}` })),
  { key: "examples.feed", type: "boolean", default: false, doc: "Feed the example applications' input topics with sample data." },
  { key: "examples.feed.interval.ms", type: "integer", default: 500, doc: "Interval between sample-data batches." },
  { key: "log.level", type: "string", default: "info", choices: ["debug", "info", "warn", "error", "silent"], doc: "Lowest level of log lines written to stderr." },
  { key: "plugins.packages", type: "string-list", default: [], doc: "Extra package folders whose META-INF/services descriptors are loaded (comma-separated)." },
];

/** Keys an application accepts under `applications.<application.id>.` (the streams keys, per application). */
export const APPLICATION_KEYS: readonly ConfigKeySpec[] = STREAMS_KEYS;
