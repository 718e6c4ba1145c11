/**
 * The server side of SCRAM (RFC 5802 §5): client-first → server-first (the user's salt and iterations, the nonce
 * extended), client-final → server-final (the server's signature) once the client's proof matches the StoredKey.
 */
import { timingSafeEqual } from "node:crypto";
import {
  authMessage,
  formatServerFinal,
  formatServerFirst,
  hash,
  hmac,
  parseClientFinal,
  parseClientFirst,
  scramNonce,
  xor,
  type ClientFirstMessage,
  type ScramMechanism,
} from "../../kafka-protocol/sasl/scram";
import type { SaslCredentials } from "./sasl-credentials";
import { invalidCredentials, SaslAuthenticationFailure, type ExchangeStep, type SaslExchange } from "./sasl-exchange";

interface Started {
  clientFirst: ClientFirstMessage;
  /** The GS2 header the client sent, as `c=` must repeat it (base64). */
  channelBinding: string;
  serverFirst: string;
  nonce: string;
}

export class ScramExchange implements SaslExchange {
  private started: Started | null = null;
  private done = false;

  constructor(
    private readonly mechanism: ScramMechanism,
    private readonly credentials: SaslCredentials,
  ) {}

  async step(token: Buffer): Promise<ExchangeStep> {
    if (this.done) throw new SaslAuthenticationFailure(`${this.mechanism} exchange is already complete`);
    return this.started === null ? this.first(token.toString("utf8")) : this.final(this.started, token.toString("utf8"));
  }

  private first(text: string): ExchangeStep {
    const clientFirst = parseClientFirst(text);
    // Kafka's delegation tokens authenticate through SCRAM with this extension; this broker issues none.
    if (clientFirst.extensions.get("tokenauth") === "true") throw new SaslAuthenticationFailure("delegation tokens are not supported");
    const credential = this.credentials.scram(this.mechanism, clientFirst.username);
    const nonce = clientFirst.nonce + scramNonce();
    const serverFirst = formatServerFirst({ nonce, salt: credential.salt, iterations: credential.iterations });
    const header = text.slice(0, text.length - clientFirst.bare.length);
    this.started = { clientFirst, channelBinding: Buffer.from(header, "utf8").toString("base64"), serverFirst, nonce };
    return { token: Buffer.from(serverFirst, "utf8") };
  }

  private final(started: Started, text: string): ExchangeStep {
    this.done = true;
    const clientFinal = parseClientFinal(text);
    if (clientFinal.channelBinding !== started.channelBinding) throw new SaslAuthenticationFailure("SCRAM channel binding differs from the client-first message's");
    // librdkafka before 2.6.1 repeats its own nonce before the combined one; Kafka 3.x accepts that, as this broker does
    // (the proof signs the nonce as sent, so the check of the password loses nothing).
    if (!clientFinal.nonce.endsWith(started.nonce)) throw new SaslAuthenticationFailure("SCRAM nonce differs from the server's");
    const { username } = started.clientFirst;
    const credential = this.credentials.scram(this.mechanism, username);
    const signed = authMessage(started.clientFirst.bare, started.serverFirst, clientFinal.withoutProof);
    const clientKey = xor(clientFinal.proof, hmac(this.mechanism, credential.storedKey, signed));
    if (!timingSafeEqual(hash(this.mechanism, clientKey), credential.storedKey)) throw invalidCredentials(this.mechanism);
    return { token: Buffer.from(formatServerFinal(hmac(this.mechanism, credential.serverKey, signed)), "utf8"), principal: username };
  }
}
