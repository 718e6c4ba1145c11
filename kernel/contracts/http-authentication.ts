/**
 * How callers of the HTTP API authenticate (`server.auth.*`), as a plugin that describes the API needs it: the
 * mechanism, and nothing secret. The kernel registers it while the HTTP server is on.
 */
import { token } from "./token";

export const HTTP_AUTHENTICATION = token<HttpAuthentication>("sluice.http.Authentication");

export interface HttpAuthentication {
  /** `server.auth.mechanism`; `none` lets everyone do everything. */
  readonly mechanism: "none" | "basic" | "bearer" | "mtls";
  /** bearer: JWTs are accepted (a JWKS URL or a public key is configured), besides opaque tokens. */
  readonly jwt: boolean;
  /** Another instance's forwarded queries carry a proof made with the instance secret (`server.auth.peer.token.file`). */
  readonly peerProofs: boolean;
}
