/**
 * The server side of OAUTHBEARER: the client's JWT verified with jose against the configured key set (signature,
 * expiry, and issuer and audience when set); its `sub` is the principal. A refused token is answered as RFC 7628
 * says, with a JSON error challenge, and the exchange fails once the client acknowledges it.
 */
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify, type JSONWebKeySet } from "jose";
import { parseOAuthBearer } from "../../kafka-protocol/sasl/oauthbearer";
import { SaslAuthenticationFailure, type ExchangeStep, type SaslExchange } from "./sasl-exchange";

/** Where the keys that sign valid tokens come from, and what the tokens must claim. */
export interface OAuthBearerValidation {
  /** A key set (read from a file at startup), or the http(s) URL of one, fetched and cached by jose. */
  readonly jwks: JSONWebKeySet | string;
  readonly issuer?: string;
  readonly audience?: string;
}

export type TokenVerifier = (token: string) => Promise<{ subject: string; expiresAt: number }>;

export function tokenVerifier(validation: OAuthBearerValidation): TokenVerifier {
  const keys = typeof validation.jwks === "string" ? createRemoteJWKSet(new URL(validation.jwks)) : createLocalJWKSet(validation.jwks);
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: validation.issuer, audience: validation.audience, requiredClaims: ["sub", "exp"] });
      return { subject: payload.sub!, expiresAt: payload.exp! * 1000 };
    } catch (error) {
      throw new SaslAuthenticationFailure(`invalid OAUTHBEARER token: ${error instanceof errors.JOSEError ? error.message : "not a JWT"}`);
    }
  };
}

export class OAuthBearerExchange implements SaslExchange {
  private refused: SaslAuthenticationFailure | null = null;

  constructor(private readonly verify: TokenVerifier) {}

  async step(token: Buffer): Promise<ExchangeStep> {
    if (this.refused) throw this.refused;
    const { token: bearer } = parseOAuthBearer(token);
    try {
      const { subject, expiresAt } = await this.verify(bearer);
      return { token: Buffer.alloc(0), principal: subject, credentialExpiresAt: expiresAt };
    } catch (error) {
      if (!(error instanceof SaslAuthenticationFailure)) throw error;
      this.refused = error;
      return { token: Buffer.from(JSON.stringify({ status: "invalid_token" }), "utf8") };
    }
  }
}
