/**
 * The sections the kernel itself owns: `server` (the HTTP server and its security), `log` and `plugins`. The
 * built-in REST plugins claim sub-sections of `server` for their own settings (`server.sse`, `server.query`, ...).
 */
import type { ConfigReader } from "./config-reader";
import { configSection, type ConfigSection } from "./config-schema";

export const SERVER_CONFIG = configSection({
  name: "server",
  doc: "The HTTP server: listener, security (TLS, authentication, CORS), headless mode, REST extensions; the built-in REST plugins' settings are in sub-sections of their own.",
  keys: {
    enable: { type: "boolean", default: true, doc: "Serve the HTTP API." },
    listener: { type: "string", default: "127.0.0.1", doc: "Address the HTTP server listens on." },
    port: { type: "integer", default: 8080, min: 0, max: 65_535, doc: "HTTP port; 0 picks a free port (logged at startup)." },
    "advertised.listener": { type: "string", doc: "host or host:port other instances reach this server at (`application.server`). Default: the listener; the machine's hostname when the listener is a wildcard (`0.0.0.0`, `::`), logged at startup." },
    headless: { type: "boolean", default: false, doc: "Refuse operations that change applications (restart, stop) with 403." },
    "rest.extensions": { type: "boolean", default: false, doc: "Load REST extensions (sluice.rest.RestExtension descriptors)." },
    "body.limit": { type: "integer", default: 1_048_576, doc: "Largest request body in bytes; larger ones get 413." },
    "compression.enable": { type: "boolean", default: true, doc: "Compress answers (brotli or gzip, as the client's Accept-Encoding allows) of at least server.compression.threshold.bytes, and streamed ones; never server-sent events." },
    "compression.threshold.bytes": { type: "integer", default: 1_024, doc: "Smallest answer, in bytes, that is compressed." },
    // HTTP security (TLS, authentication, authorization, CORS)
    "ssl.enable": { type: "boolean", default: false, doc: "Serve HTTPS instead of HTTP." },
    "ssl.key.location": { type: "string", default: "", doc: "PEM private key of the HTTPS server (re-read on SIGHUP)." },
    "ssl.certificate.location": { type: "string", default: "", doc: "PEM certificate (chain) of the HTTPS server (re-read on SIGHUP)." },
    "ssl.ca.location": { type: "string", default: "", doc: "PEM CA certificates that client certificates must chain to; also trusted for peer queries." },
    "ssl.client.auth": { type: "string", default: "none", choices: ["none", "requested", "required"], doc: "Ask clients for a certificate: none, requested (optional), required (the handshake fails without one)." },
    "auth.mechanism": { type: "string", default: "none", choices: ["none", "basic", "bearer", "mtls"], doc: "How requests authenticate; none lets everyone do everything." },
    "auth.users.file": { type: "string", default: "", path: "file", doc: "basic: file of 'name:scrypt-hash:role' lines, written by `sluice passwd`." },
    "auth.tokens.file": { type: "string", default: "", path: "file", doc: "bearer: file of '<sha256 hex of the token>:role[:name]' lines (opaque tokens)." },
    "auth.jwt.jwks.url": { type: "string", default: "", doc: "bearer: JWKS URL whose keys verify JWTs." },
    "auth.jwt.public.key.location": { type: "string", default: "", path: "file", doc: "bearer: PEM public key that verifies JWTs (instead of a JWKS URL)." },
    "auth.jwt.issuer": { type: "string", default: "", doc: "bearer: required 'iss' of JWTs; empty: not checked." },
    "auth.jwt.audience": { type: "string", default: "", doc: "bearer: required 'aud' of JWTs; empty: not checked." },
    "auth.jwt.roles.claim": { type: "string", default: "roles", doc: "bearer: claim (dotted path) holding the role or roles; the strongest known one counts." },
    "auth.mtls.roles": { type: "string-list", default: [], doc: "mtls: 'name:role' items; a bare name (or 'CN=name') is matched against the certificate's subject CN, 'DNS:name', 'email:name', 'URI:name' or 'IP:address' against subject alternative names of that type only." },
    "auth.public.paths": { type: "string-list", default: ["/health"], doc: "Paths anyone may read (GET, HEAD) without authentication: exact, or as a prefix of '/'-separated sub-paths (/health covers /health/liveness). Never other methods. Credentials sent there are still checked; /health and /health/readiness name applications only to authenticated callers." },
    "auth.peer.token.file": { type: "string", default: "", path: "file", doc: "File holding the instance secret, the same on every instance (at least 16 characters; e.g. `openssl rand -base64 32`). A forwarded query and its answer each carry an HMAC-SHA256 made with it — never the secret, never the caller's credentials — and it admits them to the query routes only. With authentication on and no secret, queries are not forwarded (the answer's failure entries and a log line say so)." },
    "auth.peer.ca.location": { type: "string", default: "", path: "file", doc: "PEM CA that other instances' certificates chain to; default: server.ssl.ca.location." },
    "auth.failure.delay.ms": { type: "integer", default: 100, doc: "After a failed login, requests with credentials from its address wait this long before they are checked (correct ones too), and the 401 of each failure as long; it doubles with each failure from the address within a minute." },
    "auth.failure.delay.max.ms": { type: "integer", default: 2_000, doc: "Longest delay of the requests from an address with failed logins." },
    "auth.failure.user.limit": { type: "integer", default: 10, doc: "basic: failed logins of one user name, each within a minute of the one before, after which logins of that name are refused (429) without a password check for a minute — except from addresses it logged in from within a day, and those the login cache knows." },
    "auth.hash.concurrency": { type: "integer", default: 2, doc: "basic: password checks (scrypt, on libuv's thread pool, which file I/O, compression and the broker share) run at once." },
    "auth.hash.queue.size": { type: "integer", default: 32, doc: "basic: logins waiting for a password check; past it a login is answered 503 with Retry-After at once." },
    "auth.cache.ttl.ms": { type: "integer", default: 60_000, doc: "basic: how long a verified `Authorization` header is remembered (by its HMAC under a key of the process, never in clear), so a client does not pay a password check per request; 0: never. Changing the users file forgets them all." },
    "auth.jwt.require.exp": { type: "boolean", default: true, doc: "bearer: refuse JWTs without an `exp` claim." },
    "auth.jwt.clock.skew.ms": { type: "integer", default: 30_000, doc: "bearer: how far in the future a JWT's `iat` and `nbf`, and how far in the past its `exp`, may be, for clocks that differ." },
    "auth.files.check.ms": { type: "integer", default: 1_000, doc: "How often the users, tokens, JWT key and instance secret files are checked for changes, which take effect at once (a password changed with `sluice passwd`, a token removed); 0: only on SIGHUP." },
    "cors.origins": { type: "string-list", default: [], doc: "Origins allowed to call the API from a browser (CORS), or '*'; empty: CORS off." },
  },
  open: { "info.": "Served by `GET /info` as nested JSON: `server.info.app.name: x` → `{\"app\": {\"name\": \"x\"}}`." },
});

export type ServerConfig = ConfigReader<typeof SERVER_CONFIG.keys>;

export const LOG_CONFIG = configSection({
  name: "log",
  doc: "Sluice's own log: JSON lines on stderr.",
  keys: {
    level: { type: "string", default: "info", choices: ["debug", "info", "warn", "error", "silent"], doc: "Lowest level of log lines written, to stderr and to the applications' log files. PUT /api/v1/log/level (admin) changes it while Sluice runs, to debug or info only: audit lines and failed logins are written at info and warn." },
  },
});

export const PLUGINS_CONFIG = configSection({
  name: "plugins",
  doc: "Where descriptors are found besides the application, Sluice and the installed packages.",
  keys: {
    packages: { type: "string-list", default: [], doc: "Extra package folders whose META-INF/services descriptors are loaded (comma-separated)." },
  },
});

export const KERNEL_SECTIONS: readonly ConfigSection[] = [SERVER_CONFIG, LOG_CONFIG, PLUGINS_CONFIG];
