/** The server side of one mechanism's exchange on one connection: client tokens in, server tokens out. */

export interface ExchangeStep {
  /** The token to answer with (empty when the mechanism has nothing to say). */
  readonly token: Buffer;
  /** Set once the client has proven who it is: the exchange is complete. */
  readonly principal?: string;
  /** When the credential itself expires (an OAUTHBEARER token's `exp`), epoch ms. */
  readonly credentialExpiresAt?: number;
}

export interface SaslExchange {
  /** Rejects with SaslAuthenticationFailure when the client fails to authenticate. */
  step(token: Buffer): Promise<ExchangeStep>;
}

/** The client failed to authenticate; the message is what the client is told (it names no secret). */
export class SaslAuthenticationFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SaslAuthenticationFailure";
  }
}

export const invalidCredentials = (mechanism: string) => new SaslAuthenticationFailure(`Authentication failed: invalid credentials with SASL mechanism ${mechanism}`);
