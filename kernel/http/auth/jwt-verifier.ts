/**
 * JWT bearer tokens verified with jose against a JWKS URL or a PEM public key file: signature, expiry (and
 * not-before), issuer and audience when configured. The role is the strongest known role in the roles claim
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
    try {
      ({ payload } = await jwtVerify(token, this.key, { issuer: this.settings.issuer, audience: this.settings.audience }));
    } catch (error) {
      return badCredentials(`invalid JWT: ${error instanceof errors.JOSEError ? error.code : "not a JWT"}`);
    }
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
