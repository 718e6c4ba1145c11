/** The server side of PLAIN: one message, the password checked against the user's salted keys. */
import { parsePlain } from "../../kafka-protocol/sasl/plain";
import type { SaslCredentials } from "./sasl-credentials";
import { invalidCredentials, type ExchangeStep, type SaslExchange } from "./sasl-exchange";

export class PlainExchange implements SaslExchange {
  constructor(private readonly credentials: SaslCredentials) {}

  async step(token: Buffer): Promise<ExchangeStep> {
    const { username, password } = parsePlain(token);
    if (!(await this.credentials.checkPassword(username, password))) throw invalidCredentials("PLAIN");
    return { token: Buffer.alloc(0), principal: username };
  }
}
