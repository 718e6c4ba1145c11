/**
 * The server side of PLAIN: one message, the password checked against the user's salted keys. The checks of all
 * connections share one bounded queue; a client that finds it full fails to authenticate without a check.
 */
import { HashQueueFull, type HashQueue } from "../../../kernel/hash-queue";
import { parsePlain } from "../../kafka-protocol/sasl/plain";
import type { SaslCredentials } from "./sasl-credentials";
import { invalidCredentials, SaslAuthenticationFailure, type ExchangeStep, type SaslExchange } from "./sasl-exchange";

export class PlainExchange implements SaslExchange {
  constructor(
    private readonly credentials: SaslCredentials,
    private readonly checks: HashQueue,
  ) {}

  async step(token: Buffer): Promise<ExchangeStep> {
    const { username, password } = parsePlain(token);
    const valid = await this.checks.run(() => this.credentials.checkPassword(username, password)).catch((error: unknown) => {
      if (!(error instanceof HashQueueFull)) throw error;
      throw new SaslAuthenticationFailure(`Authentication failed: not checked, the broker is busy (${error.message}); try again later`);
    });
    if (!valid) throw invalidCredentials("PLAIN");
    return { token: Buffer.alloc(0), principal: username };
  }
}
