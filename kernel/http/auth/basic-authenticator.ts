/**
 * `server.auth.mechanism=basic`: `Authorization: Basic` checked against the users file. scrypt is slow by
 * design, so a verified header is remembered (by its SHA-256, never in clear) until the file is read again.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { badCredentials, credentialsOf, noCredentials, type AuthOutcome, type Authenticator } from "./authenticator";
import { hashPassword, parsePasswordHash, verifyPassword } from "./password-hash";
import type { Principal } from "./principal";
import { readUsersFile, type UserEntry } from "./users-file";

const REMEMBERED_LOGINS = 1_024;

export class BasicAuthenticator implements Authenticator {
  readonly scheme = "Basic";
  private users: Map<string, UserEntry>;
  private readonly verified = new Map<string, Principal>();
  /** Unknown users cost a verification too, so that timing does not tell which names exist. */
  private readonly decoy = hashPassword("decoy").then((stored) => parsePasswordHash(stored)!);

  constructor(private readonly file: string, private readonly key: string) {
    this.users = readUsersFile(file, key);
  }

  reload(): void {
    this.users = readUsersFile(this.file, this.key);
    this.verified.clear();
  }

  authenticate(req: IncomingMessage): AuthOutcome | Promise<AuthOutcome> {
    const credentials = credentialsOf(req, "Basic");
    if (credentials === undefined) return noCredentials("Basic credentials required");
    const digest = createHash("sha256").update(credentials).digest("base64");
    return this.verified.get(digest) ?? this.verify(credentials, digest);
  }

  private async verify(credentials: string, digest: string): Promise<AuthOutcome> {
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(credentials)) return badCredentials("Basic credentials are not base64");
    const decoded = Buffer.from(credentials, "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) return badCredentials("Basic credentials are not 'user:password'");
    const name = decoded.slice(0, colon);
    const user = this.users.get(name);
    const matches = await verifyPassword(decoded.slice(colon + 1), user?.hash ?? (await this.decoy));
    if (!user || !matches) return badCredentials(`wrong user name or password (user '${name.slice(0, 64)}')`);
    const principal: Principal = { name, role: user.role, mechanism: "basic" };
    if (this.verified.size >= REMEMBERED_LOGINS) this.verified.clear();
    this.verified.set(digest, principal);
    return principal;
  }
}
