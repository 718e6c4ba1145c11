/** The HTTP server's security, from `server.ssl.*`, `server.auth.*` and `server.cors.*`: what the kernel wires in. */
import { SERVER_CONFIG, type ServerConfig } from "../config/kernel-config";
import type { SluiceConfig } from "../config/sluice-config";
import { StartupError } from "../errors";
import type { Logger } from "../logger";
import { AccessGuard } from "./access-guard";
import type { Authenticator } from "./auth/authenticator";
import { BasicAuthenticator } from "./auth/basic-authenticator";
import { BearerAuthenticator } from "./auth/bearer-authenticator";
import { JwtVerifier } from "./auth/jwt-verifier";
import { LoginThrottle } from "./auth/login-throttle";
import { MtlsAuthenticator } from "./auth/mtls-authenticator";
import { sha256 } from "./auth/secret-digest";
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
}

export function httpSecurityOf(sluiceConfig: SluiceConfig, logger: Logger): HttpSecurity {
  const config = sluiceConfig.of(SERVER_CONFIG);
  const tls = tlsFilesOf(config);
  const mechanism = config.get("auth.mechanism");
  const authenticator = authenticatorOf(mechanism, config, tls);
  const tokenFile = config.get("auth.peer.token.file") || undefined;
  const token = tokenFile ? readConfiguredFile(tokenFile, "server.auth.peer.token.file").toString("utf8").trim() : undefined;
  if (token === "") throw new StartupError(`${tokenFile} (server.auth.peer.token.file) is empty`);
  const guard = new AccessGuard({
    authenticator,
    peerDigest: token === undefined ? undefined : sha256(token),
    publicPaths: config.get("auth.public.paths"),
    throttle: new LoginThrottle(config.get("auth.failure.delay.ms"), config.get("auth.failure.delay.max.ms")),
    logger,
  });
  const origins = config.get("cors.origins");
  const peer = new PeerClient({
    tls,
    caFile: config.get("auth.peer.ca.location") || undefined,
    token,
    presentCertificate: mechanism === "mtls",
  });
  return {
    tls,
    guard,
    cors: origins.length > 0 ? new CorsPolicy(origins) : undefined,
    peer,
    reloadCredentials: () => {
      authenticator?.reload?.();
      peer.reload();
    },
  };
}

function authenticatorOf(mechanism: string, config: ServerConfig, tls: TlsFiles | undefined): Authenticator | undefined {
  switch (mechanism) {
    case "basic": {
      const file = config.get("auth.users.file");
      if (!file) throw new StartupError("server.auth.users.file is required when server.auth.mechanism is basic");
      return new BasicAuthenticator(file, "server.auth.users.file");
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
