/** The HTTP server's security, from `server.ssl.*`, `server.auth.*` and `server.cors.*`: what the kernel wires in. */
import fs from "node:fs";
import { SERVER_CONFIG, type ServerConfig } from "../config/kernel-config";
import type { SluiceConfig } from "../config/sluice-config";
import { StartupError } from "../errors";
import type { Logger } from "../logger";
import { AccessGuard } from "./access-guard";
import type { Authenticator } from "./auth/authenticator";
import { BasicAuthenticator } from "./auth/basic-authenticator";
import { BearerAuthenticator } from "./auth/bearer-authenticator";
import { HashQueue } from "../hash-queue";
import { JwtVerifier } from "./auth/jwt-verifier";
import { LoginThrottle } from "./auth/login-throttle";
import { MtlsAuthenticator } from "./auth/mtls-authenticator";
import { MIN_SECRET_LENGTH, PeerSecret } from "./auth/peer-proof";
import { TokenFile } from "./auth/token-file";
import { readConfiguredFile } from "./configured-file";
import { CorsPolicy } from "./cors-policy";
import { PeerClient } from "./peer-client";
import { tlsFilesOf, type TlsFiles } from "./tls-settings";

export interface HttpSecurity {
  tls: TlsFiles | undefined;
  guard: AccessGuard;
  cors: CorsPolicy | undefined;
  peer: PeerClient;
  /** Reads the users, tokens and key files again (SIGHUP); the TLS files are the server's to reload. */
  reloadCredentials(): void;
  /** Reloads the credentials whenever one of their files changes, until `close`. */
  watchCredentials(onReload: () => void): void;
  close(): void;
}

export function httpSecurityOf(sluiceConfig: SluiceConfig, logger: Logger): HttpSecurity {
  const config = sluiceConfig.of(SERVER_CONFIG);
  const tls = tlsFilesOf(config);
  const mechanism = config.get("auth.mechanism");
  const authenticator = authenticatorOf(mechanism, config, tls, logger);
  const secretFile = config.get("auth.peer.token.file") || undefined;
  const readSecret = () => (secretFile ? peerSecretOf(secretFile) : undefined);
  let peerSecret = readSecret();
  const guardOptions = {
    authenticator,
    peerSecret,
    publicPaths: config.get("auth.public.paths"),
    throttle: new LoginThrottle(config.get("auth.failure.delay.ms"), config.get("auth.failure.delay.max.ms")),
    logger,
  };
  const guard = new AccessGuard(guardOptions);
  const origins = config.get("cors.origins");
  const peerSettings = { tls, caFile: config.get("auth.peer.ca.location") || undefined, secret: peerSecret, authenticated: authenticator !== undefined, presentCertificate: mechanism === "mtls" };
  const peer = new PeerClient(peerSettings);
  if (peer.refusal) logger.warn("interactive queries answer from this instance's own partitions only", { reason: peer.refusal });
  const watched = [...(authenticator?.files ?? []), ...(secretFile ? [secretFile] : [])];
  const checkMs = config.get("auth.files.check.ms");
  let stopWatching = () => {};
  const reloadCredentials = () => {
    authenticator?.reload?.();
    peerSecret = readSecret();
    guardOptions.peerSecret = peerSecret;
    peerSettings.secret = peerSecret;
    peer.reload();
  };
  return {
    tls,
    guard,
    cors: origins.length > 0 ? new CorsPolicy(origins) : undefined,
    peer,
    reloadCredentials,
    watchCredentials: (onReload) => {
      if (checkMs > 0 && watched.length > 0) stopWatching = watchFiles(watched, checkMs, onReload);
    },
    close: () => stopWatching(),
  };
}

/**
 * Calls `changed` once after any of `files` changes (its content replaced, renamed over, removed), polling their
 * status every `intervalMs`: a rename of a new file over the old one, as `sluice passwd` does, is seen too.
 */
function watchFiles(files: readonly string[], intervalMs: number, changed: () => void): () => void {
  const listener = (current: fs.Stats, previous: fs.Stats) => {
    if (current.mtimeMs !== previous.mtimeMs || current.ino !== previous.ino || current.size !== previous.size) changed();
  };
  for (const file of files) fs.watchFile(file, { interval: intervalMs, persistent: false }, listener);
  return () => {
    for (const file of files) fs.unwatchFile(file, listener);
  };
}

function peerSecretOf(file: string): PeerSecret {
  const secret = readConfiguredFile(file, "server.auth.peer.token.file").toString("utf8").trim();
  if (secret.length < MIN_SECRET_LENGTH) throw new StartupError(`${file} (server.auth.peer.token.file) must hold at least ${MIN_SECRET_LENGTH} characters (e.g. \`openssl rand -base64 32\`)`);
  return new PeerSecret(Buffer.from(secret, "utf8"));
}

function authenticatorOf(mechanism: string, config: ServerConfig, tls: TlsFiles | undefined, logger: Logger): Authenticator | undefined {
  switch (mechanism) {
    case "basic": {
      const file = config.get("auth.users.file");
      if (!file) throw new StartupError("server.auth.users.file is required when server.auth.mechanism is basic");
      return new BasicAuthenticator({
        file,
        key: "server.auth.users.file",
        cacheTtlMs: config.get("auth.cache.ttl.ms"),
        userFailureLimit: config.get("auth.failure.user.limit"),
        hashes: new HashQueue(Math.max(1, config.get("auth.hash.concurrency")), Math.max(0, config.get("auth.hash.queue.size"))),
        logger,
      });
    }
    case "bearer": {
      const tokens = config.get("auth.tokens.file");
      const jwksUrl = config.get("auth.jwt.jwks.url") || undefined;
      const publicKeyFile = config.get("auth.jwt.public.key.location") || undefined;
      if (!tokens && !jwksUrl && !publicKeyFile) {
        throw new StartupError("server.auth.mechanism is bearer: set server.auth.tokens.file, server.auth.jwt.jwks.url or server.auth.jwt.public.key.location");
      }
      const jwt = jwksUrl || publicKeyFile
        ? new JwtVerifier({
            jwksUrl,
            publicKeyFile,
            issuer: config.get("auth.jwt.issuer") || undefined,
            audience: config.get("auth.jwt.audience") || undefined,
            rolesClaim: config.get("auth.jwt.roles.claim"),
            requireExp: config.get("auth.jwt.require.exp"),
            clockSkewMs: config.get("auth.jwt.clock.skew.ms"),
          })
        : undefined;
      return new BearerAuthenticator(tokens ? new TokenFile(tokens, "server.auth.tokens.file") : undefined, jwt);
    }
    case "mtls":
      if (!tls || tls.clientAuth === "none") throw new StartupError("server.auth.mechanism mtls needs server.ssl.enable and server.ssl.client.auth requested or required");
      return new MtlsAuthenticator(config.get("auth.mtls.roles"));
    default:
      return undefined;
  }
}
