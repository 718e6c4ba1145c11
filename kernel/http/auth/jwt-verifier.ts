/**
 * JWT bearer tokens verified with jose against a JWKS URL or a PEM public key file: signature, expiry (and
 * not-before), issuer and audience when configured. The role is the strongest known role in the roles claim
 * (a dotted path, e.g. `realm_access.roles`; a string or an array).
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";
import { StartupError } from "../../errors";
import { readConfiguredFile } from "../configured-file";
import { badCredentials, type AuthOutcome } from "./authenticator";
import { strongestRole } from "./principal";

export interface JwtSettings {
  jwksUrl?: string;
  publicKeyFile?: string;
  issuer?: string;
  audience?: string;
  rolesClaim: string;
}

type Key = KeyObject | ReturnType<typeof createRemoteJWKSet>;

export class JwtVerifier {
  private key: Key;

  constructor(private readonly settings: JwtSettings) {
    this.key = this.readKey();
  }

  reload(): void {
    if (this.settings.publicKeyFile) this.key = this.readKey();
  }

  async authenticate(token: string): Promise<AuthOutcome> {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.key, { issuer: this.settings.issuer, audience: this.settings.audience }));
    } catch (error) {
      return badCredentials(`invalid JWT: ${error instanceof errors.JOSEError ? error.code : "not a JWT"}`);
    }
    const claim = this.settings.rolesClaim.split(".").reduce<unknown>((value, name) => (value as Record<string, unknown> | undefined)?.[name], payload);
    const role = strongestRole(Array.isArray(claim) ? claim : [claim]);
    if (!role) return badCredentials(`JWT of '${payload.sub ?? "no subject"}' has no known role in claim '${this.settings.rolesClaim}'`);
    return { name: payload.sub ?? "jwt", role, mechanism: "bearer" };
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
