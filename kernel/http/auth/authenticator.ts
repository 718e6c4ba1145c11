/** What every authentication mechanism implements, and the answer it gives for one request. */
import type { IncomingMessage } from "node:http";
import type { Principal } from "./principal";

export interface Rejection {
  /** Why, for the log and the 401 message; never holds the credential. */
  readonly reason: string;
  /** The request sent credentials (a failed login, slowed and logged) rather than none. */
  readonly credentialsSent: boolean;
  /** Not checked now: 429 (too many failed logins) or 503 (too many logins being checked), with Retry-After. */
  readonly busy?: { status: 429 | 503; retryAfterMs: number };
}

export type AuthOutcome = Principal | Rejection;

export const isRejection = (outcome: AuthOutcome): outcome is Rejection => (outcome as Rejection).reason !== undefined;

export const noCredentials = (reason: string): Rejection => ({ reason, credentialsSent: false });
export const badCredentials = (reason: string): Rejection => ({ reason, credentialsSent: true });

export interface Authenticator {
  /** The scheme of the `WWW-Authenticate` challenge of a 401 (`Basic`, `Bearer`, …). */
  readonly scheme: string;
  /** `source`: the client's address. */
  authenticate(req: IncomingMessage, source: string): AuthOutcome | Promise<AuthOutcome>;
  /** Reads its files again (SIGHUP, or a watched file that changed). */
  reload?(): void;
  /** The files it reads, watched for changes. */
  readonly files?: readonly string[];
}

/** The credentials of `Authorization: <scheme> <credentials>`; undefined when the header has another scheme. */
export function credentialsOf(req: IncomingMessage, scheme: string): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined || header.length <= scheme.length || header[scheme.length] !== " ") return undefined;
  if (header.slice(0, scheme.length).toLowerCase() !== scheme.toLowerCase()) return undefined;
  return header.slice(scheme.length + 1).trim();
}
