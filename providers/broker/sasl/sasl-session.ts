/**
 * One SASL connection's authentication, as Kafka's broker runs it (KIP-43, KIP-152, KIP-368): ApiVersions, then
 * SaslHandshake naming an enabled mechanism, then SaslAuthenticate exchanges (after a v0 handshake, bare tokens)
 * until the client has proven who it is. Any other request before that closes the connection, and so does a refused
 * handshake or a failed exchange, once its answer is written — which waits the failed-authentication delay first, so
 * that guessing costs time (this connection's only). With a session lifetime, a client must authenticate again (the
 * same principal, the same mechanism) before it ends; a request after it closes the connection.
 */
import { setTimeout as delay } from "node:timers/promises";
import type { ChunkedBytes } from "../../kafka-protocol/chunked-bytes";
import { ErrorCode } from "../../kafka-protocol/error-codes";
import { ApiVersions } from "../../kafka-protocol/messages/api-versions";
import { SaslAuthenticate } from "../../kafka-protocol/messages/sasl-authenticate";
import { SaslHandshake } from "../../kafka-protocol/messages/sasl-handshake";
import { isSaslMechanism, type SaslMechanism } from "../../kafka-protocol/sasl/sasl-mechanisms";
import { SaslMessageError } from "../../kafka-protocol/sasl/sasl-message-error";
import type { ResponseOf } from "../../kafka-protocol/schema";
import { defineHandler, type RegisteredHandler } from "../handlers/api-handler";
import type { ConnectionAuthentication } from "../server/request-dispatcher";
import { SaslAuthenticationFailure, type ExchangeStep, type SaslExchange } from "./sasl-exchange";
import type { ComponentLogger } from "../../../kernel/logger";

/** What a session needs of the listener's SASL server (SaslServer is one). */
export interface SaslSessionServer {
  readonly mechanisms: readonly SaslMechanism[];
  readonly maxReauthMs: number;
  /** How long the answer to a failed authentication waits. */
  readonly failedAuthenticationDelayMs: number;
  readonly logger: ComponentLogger;
  exchange(mechanism: SaslMechanism): SaslExchange;
}

export class SaslSession implements ConnectionAuthentication {
  private mechanism: SaslMechanism | null = null;
  /** The exchange after a handshake, until it completes or fails. */
  private exchange: SaslExchange | null = null;
  /** Who the connection authenticated as; null before. */
  private user: string | null = null;
  private expiresAt = Infinity;
  private stepping = false;
  /** The exchange speaks bare tokens (SaslHandshake v0). */
  private bare = false;
  private refused = false;
  private readonly handshake: RegisteredHandler;
  private readonly authenticate: RegisteredHandler;

  constructor(
    private readonly server: SaslSessionServer,
    private readonly clientHost: string,
  ) {
    this.handshake = defineHandler(SaslHandshake, (request, context) => this.onHandshake(request.mechanism, context.apiVersion));
    this.authenticate = defineHandler(SaslAuthenticate, (request, context) => this.onAuthenticate(request.authBytes, context.apiVersion));
  }

  get principal(): string | null {
    return this.user === null ? null : `User:${this.user}`;
  }

  get busy(): boolean {
    return this.stepping;
  }

  get failed(): boolean {
    return this.refused;
  }

  get expectsBareToken(): boolean {
    return this.bare && this.exchange !== null;
  }

  refusal(apiKey: number): string | undefined {
    if (apiKey === SaslAuthenticate.apiKey && this.user === null && this.exchange === null) return "before SaslHandshake";
    if (apiKey === SaslHandshake.apiKey || apiKey === SaslAuthenticate.apiKey) return undefined;
    if (this.user !== null) return Date.now() < this.expiresAt ? undefined : `after the SASL session of '${this.user}' expired`;
    if (apiKey === ApiVersions.apiKey && this.mechanism === null) return undefined;
    return "before SASL authentication";
  }

  /** Authenticated connections get the table's answers, unless sessions expire and so may be renewed. */
  handler(apiKey: number): RegisteredHandler | undefined {
    const renewable = this.user === null || this.server.maxReauthMs > 0;
    if (apiKey === SaslHandshake.apiKey) return renewable ? this.handshake : undefined;
    if (apiKey === SaslAuthenticate.apiKey) return renewable && this.exchange !== null && !this.bare ? this.authenticate : undefined;
    return undefined;
  }

  private onHandshake(requested: string, version: number): ResponseOf<typeof SaslHandshake> | Promise<ResponseOf<typeof SaslHandshake>> {
    const mechanisms = [...this.server.mechanisms];
    const refused = async (errorCode: number, reason: string) => {
      await this.refuse(reason);
      return { errorCode, mechanisms };
    };
    if (this.exchange !== null) return refused(ErrorCode.ILLEGAL_SASL_STATE, "a second SaslHandshake before the exchange completed");
    if (!isSaslMechanism(requested) || !mechanisms.includes(requested)) return refused(ErrorCode.UNSUPPORTED_SASL_MECHANISM, `mechanism ${requested} is not enabled`);
    if (this.mechanism !== null && requested !== this.mechanism) return refused(ErrorCode.ILLEGAL_SASL_STATE, `re-authentication with ${requested} after ${this.mechanism}`);
    this.mechanism = requested;
    this.exchange = this.server.exchange(requested);
    this.bare = version === 0;
    return { errorCode: ErrorCode.NONE, mechanisms };
  }

  private async onAuthenticate(token: Buffer, version: number): Promise<ResponseOf<typeof SaslAuthenticate>> {
    const outcome = await this.step(token, version);
    if (typeof outcome === "string") return { errorCode: ErrorCode.SASL_AUTHENTICATION_FAILED, errorMessage: outcome, authBytes: Buffer.alloc(0) };
    return { errorCode: ErrorCode.NONE, errorMessage: null, authBytes: outcome.token, sessionLifetimeMs: BigInt(outcome.lifetimeMs) };
  }

  /** A failed bare exchange gets no answer: the connection closes, as Kafka's does. */
  async bareToken(frame: ChunkedBytes): Promise<Buffer[] | null> {
    const outcome = await this.step(frame.toBuffer(), 0);
    if (typeof outcome === "string") return null;
    const sized = Buffer.alloc(4);
    sized.writeInt32BE(outcome.token.length);
    return [sized, outcome.token];
  }

  /** The server's next token (and the session's lifetime), or why authentication failed. */
  private async step(token: Buffer, version: number): Promise<{ token: Buffer; lifetimeMs: number } | string> {
    const exchange = this.exchange!;
    this.stepping = true;
    try {
      const step = await exchange.step(token);
      return { token: step.token, lifetimeMs: step.principal === undefined ? 0 : this.authenticated(step, step.principal, version) };
    } catch (error) {
      if (!(error instanceof SaslAuthenticationFailure) && !(error instanceof SaslMessageError)) throw error;
      await this.refuse(error.message);
      return error.message;
    } finally {
      this.stepping = false;
    }
  }

  /** Records the principal; returns the session's lifetime (0: none). */
  private authenticated(step: ExchangeStep, principal: string, version: number): number {
    if (this.user !== null && principal !== this.user) throw new SaslAuthenticationFailure(`re-authentication as '${principal}' on a connection of '${this.user}'`);
    const renewal = this.user !== null;
    this.user = principal;
    this.exchange = null;
    // Only clients that can be told the lifetime (SaslAuthenticate v1 and later) are held to it, as Kafka does.
    const lifetimeMs = version >= 1 && this.server.maxReauthMs > 0 ? Math.max(1, Math.min(this.server.maxReauthMs, (step.credentialExpiresAt ?? Infinity) - Date.now())) : 0;
    this.expiresAt = lifetimeMs > 0 ? Date.now() + lifetimeMs : Infinity;
    this.server.logger.debug(renewal ? "SASL session renewed" : "SASL authenticated", { client: this.clientHost, principal, mechanism: this.mechanism, sessionLifetimeMs: lifetimeMs });
    return lifetimeMs;
  }

  /** Resolves after the failed-authentication delay, when the answer may go. */
  private async refuse(reason: string): Promise<void> {
    this.refused = true;
    this.exchange = null;
    this.server.logger.info("SASL authentication failed; closing the connection", { client: this.clientHost, mechanism: this.mechanism, reason });
    const wait = this.server.failedAuthenticationDelayMs;
    if (wait > 0) await delay(wait, undefined, { ref: false });
  }
}
