/** The OpenAPI security schemes of `server.auth.*`: how a caller authenticates, and which routes accept what. */
import { type HttpAuthentication, PEER_HEADER, type Role } from "sluice";

export interface SecurityScheme {
  schemes: Record<string, Record<string, unknown>>;
  /** The security requirements of a route that needs credentials (any one of them). */
  requirementsFor(role: Role, openToPeers: boolean): Record<string, string[]>[];
}

const MECHANISMS: Record<string, (authentication: HttpAuthentication) => Record<string, unknown>> = {
  basic: () => ({ type: "http", scheme: "basic", description: "Users of server.auth.users.file" }),
  bearer: ({ jwt }) => ({
    type: "http",
    scheme: "bearer",
    ...(jwt ? { bearerFormat: "JWT" } : {}),
    description: "Tokens of server.auth.tokens.file, or JWTs whose key is configured",
  }),
  mtls: () => ({ type: "mutualTLS", description: "A client certificate named in server.auth.mtls.roles" }),
};

/** Undefined when authentication is off (server.auth.mechanism=none): every route is open. */
export function securitySchemeOf(authentication: HttpAuthentication): SecurityScheme | undefined {
  const { mechanism } = authentication;
  const scheme = MECHANISMS[mechanism]?.(authentication);
  if (!scheme) return undefined;
  const schemes: SecurityScheme["schemes"] = { [mechanism]: scheme };
  // Another instance's forwarded query authenticates with a proof made with the instance secret, on the query routes only.
  const peer = authentication.peerProofs;
  if (peer) schemes.peer = { type: "apiKey", in: "header", name: PEER_HEADER, description: "Another instance's proof: an HMAC made with the instance secret (server.auth.peer.token.file); forwarded queries only" };
  return {
    schemes,
    requirementsFor: (role, openToPeers) => [{ [mechanism]: [] }, ...(peer && openToPeers ? [{ peer: [] }] : [])],
  };
}
