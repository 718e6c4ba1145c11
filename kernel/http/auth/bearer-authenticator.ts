/** `server.auth.mechanism=bearer`: `Authorization: Bearer`, an opaque token from the tokens file or a JWT. */
import type { IncomingMessage } from "node:http";
import { badCredentials, credentialsOf, isRejection, noCredentials, type AuthOutcome, type Authenticator } from "./authenticator";
import type { JwtVerifier } from "./jwt-verifier";
import type { TokenFile } from "./token-file";

/** Longer tokens are refused before any parsing (a JWT with a few claims is well under 2 KiB). */
const MAX_TOKEN_LENGTH = 8_192;
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;

export class BearerAuthenticator implements Authenticator {
  readonly scheme = "Bearer";
  readonly files: readonly string[];

  constructor(private readonly tokens: TokenFile | undefined, private readonly jwt: JwtVerifier | undefined) {
    this.files = [...(tokens ? [tokens.file] : []), ...(jwt?.file ? [jwt.file] : [])];
  }

  reload(): void {
    this.tokens?.reload();
    this.jwt?.reload();
  }

  authenticate(req: IncomingMessage): AuthOutcome | Promise<AuthOutcome> {
    const token = credentialsOf(req, "Bearer");
    if (token === undefined) return noCredentials("Bearer token required");
    if (token.length > MAX_TOKEN_LENGTH) return badCredentials(`bearer token longer than ${MAX_TOKEN_LENGTH} characters`);
    if (!TOKEN68.test(token)) return badCredentials("bearer token has characters a token cannot have");
    // One of the two is configured (checked at startup); an unknown opaque token may still be a JWT.
    const opaque = this.tokens?.authenticate(token);
    if (opaque !== undefined && (!isRejection(opaque) || !this.jwt)) return opaque;
    return this.jwt!.authenticate(token);
  }
}
