/**
 * JWT bearer tokens verified with jose against a JWKS URL or a PEM public key file: signature, expiry (required
 * unless configured otherwise), not-before and issued-at (neither in the future beyond the clock skew), issuer and
 * audience when configured. The role is the strongest known role in the roles claim
 * (a dotted path, e.g. `realm_access.roles`; a string or an array). A verified token is remembered until it
 * expires, for a minute at most (so that a key removed from the JWKS stops being honoured soon): a signature
 * check on every request would cost more than the rest of a query.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { StartupError } from "../../errors";
import { readConfiguredFile } from "../configured-file";
import { badCredentials, type AuthOutcome } from "./authenticator";
import { strongestRole, type Principal } from "./principal";

export interface JwtSettings {
  jwksUrl?: string;
  publicKeyFile?: string;
  issuer?: string;
  audience?: string;
  rolesClaim: string;
  /** Refuse tokens without `exp`. */
  requireExp: boolean;
  /** How far clocks may differ: for `exp`, `nbf` and `iat`. */
  clockSkewMs: number;
}

type Key = KeyObject | ReturnType<typeof createRemoteJWKSet>;

const REMEMBERED_TOKENS = 1_024;
const REMEMBER_MS = 60_000;

interface Verified {
  principal: Principal;
  /** Epoch ms after which the token is verified again. */
  until: number;
}

export class JwtVerifier {
  private key: Key;
  private readonly verified = new Map<string, Verified>();

  constructor(private readonly settings: JwtSettings) {
    this.key = this.readKey();
  }

  /** The key file, watched for changes; none with a JWKS URL. */
  get file(): string | undefined {
    return this.settings.jwksUrl ? undefined : this.settings.publicKeyFile;
  }

  reload(): void {
    if (this.settings.publicKeyFile) this.key = this.readKey();
    this.verified.clear();
  }

  authenticate(token: string): AuthOutcome | Promise<AuthOutcome> {
    const known = this.verified.get(token);
    if (known && Date.now() < known.until) return known.principal;
    return this.verify(token);
  }

  private async verify(token: string): Promise<AuthOutcome> {
    let payload: JWTPayload;
    const { issuer, audience, requireExp, clockSkewMs } = this.settings;
    try {
      ({ payload } = await jwtVerify(token, this.key, { issuer, audience, requiredClaims: requireExp ? ["exp"] : [], clockTolerance: Math.round(clockSkewMs / 1000) }));
    } catch (error) {
      return badCredentials(`invalid JWT: ${error instanceof errors.JOSEError ? error.code : "not a JWT"}${error instanceof errors.JWTClaimValidationFailed ? ` (${error.claim})` : ""}`);
    }
    // jose checks `iat` is a number; one in the future means a clock, or a token, that cannot be trusted.
    if (typeof payload.iat === "number" && payload.iat * 1000 > Date.now() + clockSkewMs) return badCredentials("invalid JWT: ERR_JWT_CLAIM_VALIDATION_FAILED (iat is in the future)");
    const claim = this.settings.rolesClaim.split(".").reduce<unknown>((value, name) => (value as Record<string, unknown> | undefined)?.[name], payload);
    const role = strongestRole(Array.isArray(claim) ? claim : [claim]);
    if (!role) return badCredentials(`JWT of '${payload.sub ?? "no subject"}' has no known role in claim '${this.settings.rolesClaim}'`);
    const principal: Principal = { name: payload.sub ?? "jwt", role, mechanism: "bearer" };
    if (this.verified.size >= REMEMBERED_TOKENS) this.verified.clear();
    this.verified.set(token, { principal, until: Math.min(Date.now() + REMEMBER_MS, payload.exp === undefined ? Infinity : payload.exp * 1000) });
    return principal;
  }

  private readKey(): Key {
    const { jwksUrl, publicKeyFile } = this.settings;
    if (jwksUrl) {
      try {
        return createRemoteJWKSet(new URL(jwksUrl));
      } catch (error) {
        throw new StartupError(`server.auth.jwt.jwks.url is not a URL: ${(error as Error).message}`);
      }
    }
    const pem = readConfiguredFile(publicKeyFile!, "server.auth.jwt.public.key.location");
    try {
      return createPublicKey(pem);
    } catch (error) {
      throw new StartupError(`${publicKeyFile} (server.auth.jwt.public.key.location) is not a PEM public key: ${(error as Error).message}`);
    }
  }
}
