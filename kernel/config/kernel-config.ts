/**
 * The sections the kernel itself owns: `server` (the HTTP server, its security, and the settings of the REST
 * plugins that ship with Sluice), `log` and `plugins`.
 */
import type { ConfigReader } from "./config-reader";
import { configSection, type ConfigSection } from "./config-schema";

export const SERVER_CONFIG = configSection({
  name: "server",
  doc: "The HTTP server: listener, security (TLS, authentication, CORS) and the settings of the built-in REST plugins.",
  keys: {
    enable: { type: "boolean", default: true, doc: "Serve the HTTP API." },
    listener: { type: "string", default: "127.0.0.1", doc: "Address the HTTP server listens on." },
    port: { type: "integer", default: 8080, doc: "HTTP port; 0 picks a free port (logged at startup)." },
    "advertised.listener": { type: "string", doc: "host or host:port other instances reach this server at (`application.server`). Default: the listener; the machine's hostname when the listener is a wildcard (`0.0.0.0`, `::`), logged at startup." },
    headless: { type: "boolean", default: false, doc: "Refuse operations that change applications (restart, stop) with 403." },
    "rest.extensions": { type: "boolean", default: false, doc: "Load REST extensions (sluice.rest.RestExtension descriptors)." },
    "webui.enable": { type: "boolean", default: true, doc: "Serve the operator console at /ui/ (its files are public; everything it shows comes from the API, with the same checks)." },
    "body.limit": { type: "integer", default: 1_048_576, doc: "Largest request body in bytes; larger ones get 413." },
    "sse.keepalive.ms": { type: "integer", default: 15_000, doc: "Interval of keep-alive comments on server-sent event streams." },
    "sse.history.size": { type: "integer", default: 1_000, doc: "Events each event stream keeps for clients that reconnect with Last-Event-ID." },
    "sse.buffer.size": { type: "integer", default: 1_000, doc: "Events buffered per subscriber; a slower subscriber loses its oldest ones." },
    "query.timeout.ms": { type: "integer", default: 30_000, doc: "Default query_timeout_ms of interactive queries." },
    "health.liveness.max.lag.ms": { type: "integer", default: 5_000, doc: "`GET /health/liveness` answers 503 once the event loop has been blocked longer than this within the last ten seconds." },
    "compression.enable": { type: "boolean", default: true, doc: "Compress answers (brotli or gzip, as the client's Accept-Encoding allows) of at least server.compression.threshold.bytes, and streamed ones; never server-sent events." },
    "compression.threshold.bytes": { type: "integer", default: 1_024, doc: "Smallest answer, in bytes, that is compressed." },
    "operation.timeout.ms": { type: "integer", default: 30_000, doc: "Longest time restart and stop wait for the application." },
    // HTTP security (TLS, authentication, authorization, CORS)
    "ssl.enable": { type: "boolean", default: false, doc: "Serve HTTPS instead of HTTP." },
    "ssl.key.location": { type: "string", default: "", doc: "PEM private key of the HTTPS server (re-read on SIGHUP)." },
    "ssl.certificate.location": { type: "string", default: "", doc: "PEM certificate (chain) of the HTTPS server (re-read on SIGHUP)." },
    "ssl.ca.location": { type: "string", default: "", doc: "PEM CA certificates that client certificates must chain to; also trusted for peer queries." },
    "ssl.client.auth": { type: "string", default: "none", choices: ["none", "requested", "required"], doc: "Ask clients for a certificate: none, requested (optional), required (the handshake fails without one)." },
    "auth.mechanism": { type: "string", default: "none", choices: ["none", "basic", "bearer", "mtls"], doc: "How requests authenticate; none lets everyone do everything." },
    "auth.users.file": { type: "string", default: "", doc: "basic: file of 'name:scrypt-hash:role' lines, written by `sluice passwd`." },
    "auth.tokens.file": { type: "string", default: "", doc: "bearer: file of '<sha256 hex of the token>:role[:name]' lines (opaque tokens)." },
    "auth.jwt.jwks.url": { type: "string", default: "", doc: "bearer: JWKS URL whose keys verify JWTs." },
    "auth.jwt.public.key.location": { type: "string", default: "", doc: "bearer: PEM public key that verifies JWTs (instead of a JWKS URL)." },
    "auth.jwt.issuer": { type: "string", default: "", doc: "bearer: required 'iss' of JWTs; empty: not checked." },
    "auth.jwt.audience": { type: "string", default: "", doc: "bearer: required 'aud' of JWTs; empty: not checked." },
    "auth.jwt.roles.claim": { type: "string", default: "roles", doc: "bearer: claim (dotted path) holding the role or roles; the strongest known one counts." },
    "auth.mtls.roles": { type: "string-list", default: [], doc: "mtls: 'name:role' items; name is a certificate's subject CN or a subject alternative name value." },
    "auth.public.paths": { type: "string-list", default: ["/health"], doc: "Paths served without authentication: exact, or as a prefix of '/'-separated sub-paths (/health covers /health/liveness)." },
    "auth.peer.token.file": { type: "string", default: "", doc: "File holding the shared instance credential that forwarded queries carry (every instance the same); empty: they carry the caller's Authorization." },
    "auth.peer.ca.location": { type: "string", default: "", doc: "PEM CA that other instances' certificates chain to; default: server.ssl.ca.location." },
    "auth.failure.delay.ms": { type: "integer", default: 100, doc: "Delay of the 401 of a failed login; it doubles with each failure from the same address within a minute." },
    "auth.failure.delay.max.ms": { type: "integer", default: 2_000, doc: "Longest delay of a failed login's 401." },
    "cors.origins": { type: "string-list", default: [], doc: "Origins allowed to call the API from a browser (CORS), or '*'; empty: CORS off." },
  },
  open: { "info.": "Served by `GET /info` as nested JSON: `server.info.app.name: x` → `{\"app\": {\"name\": \"x\"}}`." },
});

export type ServerConfig = ConfigReader<typeof SERVER_CONFIG.keys>;

export const LOG_CONFIG = configSection({
  name: "log",
  doc: "Sluice's own log: JSON lines on stderr.",
  keys: {
    level: { type: "string", default: "info", choices: ["debug", "info", "warn", "error", "silent"], doc: "Lowest level of log lines written, to stderr and to the applications' log files; PUT /api/v1/log/level changes it while Sluice runs." },
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
