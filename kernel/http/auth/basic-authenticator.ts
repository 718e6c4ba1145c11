/**
 * `server.auth.mechanism=basic`: `Authorization: Basic` checked against the users file. scrypt is slow by design,
 * and hashing is what a flood of logins would turn against the process, so: a verified header is remembered for a
 * short time (by its HMAC under a key of this process, never in clear) and costs no hash; the hashes run through a
 * bounded queue (a 503 past it); a user with many recent failures is refused without a hash (a 429), except from
 * addresses it logged in from; and a hash of a lower cost than today's is rewritten at today's after a login.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { Logger } from "../../logger";
import { badCredentials, credentialsOf, noCredentials, type AuthOutcome, type Authenticator } from "./authenticator";
import { HashQueue, HashQueueFull } from "../../hash-queue";
import { hashPassword, isOutdated, parsePasswordHash, unmatchableHash, verifyPassword } from "./password-hash";
import type { Principal } from "./principal";
import { UserLockout } from "./user-lockout";
import { readUsersFile, replaceHash, type UserEntry } from "./users-file";

const REMEMBERED_LOGINS = 1_024;
/** When a full hash queue tells the client to retry. */
const QUEUE_RETRY_MS = 1_000;

export interface BasicSettings {
  file: string;
  key: string;
  /** How long a verified header is remembered; 0: not at all. */
  cacheTtlMs: number;
  /** Failed logins of one user in a row after which unverified ones are refused. */
  userFailureLimit: number;
  hashes: HashQueue;
  logger: Logger;
}

interface Verified {
  principal: Principal;
  until: number;
}

export class BasicAuthenticator implements Authenticator {
  readonly scheme = "Basic";
  readonly files: readonly string[];
  private users: Map<string, UserEntry>;
  private readonly verified = new Map<string, Verified>();
  /** Keys the cache: a memory dump shows no digest of a password that could be guessed offline without it. */
  private readonly cacheKey = randomBytes(32);
  private readonly lockout: UserLockout;
  /**
   * Unknown users cost a verification too, so that timing does not tell which names exist; against random bytes, so
   * that starting costs no hash (a scrypt of 128 MiB at each start, when it hashed a decoy password).
   */
  private readonly decoy = unmatchableHash();

  constructor(private readonly settings: BasicSettings) {
    this.users = readUsersFile(settings.file, settings.key);
    this.files = [settings.file];
    this.lockout = new UserLockout(settings.userFailureLimit);
  }

  reload(): void {
    this.users = readUsersFile(this.settings.file, this.settings.key);
    this.verified.clear();
  }

  authenticate(req: IncomingMessage, source: string): AuthOutcome | Promise<AuthOutcome> {
    const credentials = credentialsOf(req, "Basic");
    if (credentials === undefined) return noCredentials("Basic credentials required");
    const digest = createHmac("sha256", this.cacheKey).update(credentials).digest("base64");
    const known = this.verified.get(digest);
    if (known && Date.now() < known.until) return known.principal;
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) return badCredentials("Basic credentials are not base64");
    const decoded = Buffer.from(credentials, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) return badCredentials("Basic credentials are not 'user:password'");
    const name = decoded.slice(0, colon);
    const shownName = name.slice(0, 64);
    const lockedMs = this.lockout.lockedFor(name, source);
    if (lockedMs > 0) return { reason: `too many failed logins of user '${shownName}'; not checked`, credentialsSent: true, busy: { status: 429, retryAfterMs: lockedMs } };
    return this.settings.hashes.run(() => this.verify(name, decoded.slice(colon + 1), digest, source)).catch((error: unknown) => {
      if (!(error instanceof HashQueueFull)) throw error;
      return { reason: `not checked: ${error.message}`, credentialsSent: false, busy: { status: 503 as const, retryAfterMs: QUEUE_RETRY_MS } };
    });
  }

  private async verify(name: string, password: string, digest: string, source: string): Promise<AuthOutcome> {
    const user = this.users.get(name);
    const matches = await verifyPassword(password, user?.hash ?? this.decoy);
    if (!user || !matches) {
      this.lockout.failed(name);
      return badCredentials(`wrong user name or password (user '${name.slice(0, 64)}')`);
    }
    this.lockout.succeeded(name, source);
    const principal: Principal = { name, role: user.role, mechanism: "basic" };
    if (this.settings.cacheTtlMs > 0) {
      if (this.verified.size >= REMEMBERED_LOGINS) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(digest, { principal, until: Date.now() + this.settings.cacheTtlMs });
    }
    if (isOutdated(user.hash)) void this.rehash(name, password, user);
    return principal;
  }

  /** Rewrites `user`'s line at today's cost, in the background, through the same bounded queue. */
  private async rehash(name: string, password: string, user: UserEntry): Promise<void> {
    try {
      const stored = await this.settings.hashes.run(() => hashPassword(password));
      if (!replaceHash(this.settings.file, name, user.stored, stored)) return;
      if (this.users.get(name) === user) this.users.set(name, { ...user, hash: parsePasswordHash(stored)!, stored });
      this.settings.logger.info("password hash raised to today's cost", { user: name, file: this.settings.file });
    } catch (error) {
      this.settings.logger.warn("password hash not raised to today's cost; tried again at the next login", { user: name, error: (error as Error).message });
    }
  }
}
