/**
 * OAUTHBEARER tokens for every connection of a client (its consumer, producer and admin): one token is shared until 80% of its
 * life has passed (as librdkafka refreshes), then the source is asked again; concurrent askers share one request.
 * A token's life ends at the `expiresAt` its source gives, or else at its JWT `exp` claim; a token with neither is
 * asked for again at each authentication.
 */
import { decodeJwt } from "jose";

export interface BearerToken {
  readonly value: string;
  /** Epoch ms. */
  readonly expiresAt?: number;
}

const REFRESH_AT_LIFE_SHARE = 0.8;

export class OAuthBearerTokens {
  private current: { value: string; refreshAt: number } | null = null;
  private asking: Promise<string> | null = null;

  constructor(private readonly source: () => Promise<BearerToken>) {}

  /** A current token (bound: it can be handed around as a function). */
  readonly token = (): Promise<string> => {
    if (this.current && Date.now() < this.current.refreshAt) return Promise.resolve(this.current.value);
    this.asking ??= this.ask().finally(() => {
      this.asking = null;
    });
    return this.asking;
  };

  private async ask(): Promise<string> {
    const askedAt = Date.now();
    const token = await this.source();
    if (typeof token?.value !== "string" || token.value === "") throw new Error("the token source gave no token");
    const expiresAt = token.expiresAt ?? jwtExpiry(token.value);
    this.current = expiresAt === undefined || expiresAt <= askedAt ? null : { value: token.value, refreshAt: askedAt + (expiresAt - askedAt) * REFRESH_AT_LIFE_SHARE };
    return token.value;
  }
}

function jwtExpiry(value: string): number | undefined {
  try {
    const { exp } = decodeJwt(value);
    return exp === undefined ? undefined : exp * 1000;
  } catch {
    return undefined;
  }
}
