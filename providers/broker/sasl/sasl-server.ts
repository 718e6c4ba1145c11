/**
 * SASL on a broker listener (SASL_PLAINTEXT, or SASL_SSL over TLS): the mechanisms it enables, its users' salted
 * credentials, the OAUTHBEARER token check, and the session lifetime (Kafka's connections.max.reauth.ms). It opens
 * one SaslSession per connection.
 */
import { isScramMechanism, type ScramMechanism } from "../../kafka-protocol/sasl/scram";
import type { SaslMechanism } from "../../kafka-protocol/sasl/sasl-mechanisms";
import { HashQueue } from "../../../kernel/hash-queue";
import type { ComponentLogger } from "../../../kernel/logger";
import { SaslCredentials, type SaslUser } from "./sasl-credentials";
import type { SaslExchange } from "./sasl-exchange";
import { OAuthBearerExchange, tokenVerifier, type OAuthBearerValidation, type TokenVerifier } from "./oauthbearer-exchange";
import { PlainExchange } from "./plain-exchange";
import { ScramExchange } from "./scram-exchange";
import { SaslSession } from "./sasl-session";

/** Plain data: it crosses into the broker's worker thread. */
export interface BrokerSasl {
  mechanisms: SaslMechanism[];
  /** Users of PLAIN and SCRAM; the broker keeps salted keys of their passwords, never the passwords. */
  users: SaslUser[];
  /** Required with OAUTHBEARER. */
  oauthbearer?: OAuthBearerValidation;
  /**
   * Longest session before a client (SaslAuthenticate v1 or later) must authenticate again, as Kafka's
   * connections.max.reauth.ms; shorter when an OAUTHBEARER token expires sooner. 0: sessions never expire.
   */
  maxReauthMs: number;
  /**
   * How long a failed authentication waits before its answer (and the close that follows), as Kafka's
   * connection.failed.authentication.delay.ms: a client guessing passwords gets fewer guesses a second. Default 100.
   */
  failedAuthenticationDelayMs?: number;
  /**
   * PLAIN's password checks (PBKDF2 on libuv's thread pool, shared with file I/O and the HTTP side) that run at
   * once across all connections; default 2.
   */
  plainCheckConcurrency?: number;
  /** PLAIN logins waiting for a check; past it a login fails at once, unchecked. Default 32. */
  plainCheckQueueSize?: number;
}

const DEFAULT_FAILED_AUTHENTICATION_DELAY_MS = 100;
const DEFAULT_PLAIN_CHECK_CONCURRENCY = 2;
const DEFAULT_PLAIN_CHECK_QUEUE_SIZE = 32;

export class SaslServer {
  private readonly plainChecks: HashQueue;

  private constructor(
    private readonly settings: BrokerSasl,
    private readonly credentials: SaslCredentials,
    private readonly verifier: TokenVerifier | null,
    readonly logger: ComponentLogger,
  ) {
    this.plainChecks = new HashQueue(Math.max(1, settings.plainCheckConcurrency ?? DEFAULT_PLAIN_CHECK_CONCURRENCY), Math.max(0, settings.plainCheckQueueSize ?? DEFAULT_PLAIN_CHECK_QUEUE_SIZE));
  }

  static async start(settings: BrokerSasl, logger: ComponentLogger): Promise<SaslServer> {
    if (settings.mechanisms.length === 0) throw new Error("SASL needs at least one mechanism");
    if (settings.mechanisms.includes("OAUTHBEARER") && !settings.oauthbearer) throw new Error("SASL mechanism OAUTHBEARER needs a key set to verify tokens with");
    const scram = settings.mechanisms.filter(isScramMechanism);
    const credentials = await SaslCredentials.derive(settings.users, scram, settings.mechanisms.includes("PLAIN"));
    return new SaslServer(settings, credentials, settings.oauthbearer ? tokenVerifier(settings.oauthbearer) : null, logger);
  }

  get mechanisms(): readonly SaslMechanism[] {
    return this.settings.mechanisms;
  }

  get maxReauthMs(): number {
    return this.settings.maxReauthMs;
  }

  get failedAuthenticationDelayMs(): number {
    return this.settings.failedAuthenticationDelayMs ?? DEFAULT_FAILED_AUTHENTICATION_DELAY_MS;
  }

  session(clientHost: string): SaslSession {
    return new SaslSession(this, clientHost);
  }

  /** An exchange of an enabled mechanism. */
  exchange(mechanism: SaslMechanism): SaslExchange {
    if (mechanism === "PLAIN") return new PlainExchange(this.credentials, this.plainChecks);
    if (mechanism === "OAUTHBEARER") return new OAuthBearerExchange(this.verifier!);
    return new ScramExchange(mechanism satisfies ScramMechanism, this.credentials);
  }
}
