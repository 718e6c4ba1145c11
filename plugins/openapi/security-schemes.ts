/** The OpenAPI security schemes of `server.auth.*`: how a caller authenticates, and which routes accept what. */
import { PEER_HEADER, type Role, type ServerConfig } from "sluice";

export interface SecurityScheme {
  schemes: Record<string, Record<string, unknown>>;
  /** The security requirements of a route that needs credentials (any one of them). */
  requirementsFor(role: Role, openToPeers: boolean): Record<string, string[]>[];
}

const MECHANISMS: Record<string, (config: ServerConfig) => Record<string, unknown>> = {
  basic: () => ({ type: "http", scheme: "basic", description: "Users of server.auth.users.file" }),
  bearer: (config) => ({
    type: "http",
    scheme: "bearer",
    ...(config.get("auth.jwt.jwks.url") || config.get("auth.jwt.public.key.location") ? { bearerFormat: "JWT" } : {}),
    description: "Tokens of server.auth.tokens.file, or JWTs whose key is configured",
  }),
  mtls: () => ({ type: "mutualTLS", description: "A client certificate named in server.auth.mtls.roles" }),
};

/** Undefined when authentication is off (server.auth.mechanism=none): every route is open. */
export function securitySchemeOf(config: ServerConfig): SecurityScheme | undefined {
  const mechanism = config.get("auth.mechanism");
  const scheme = MECHANISMS[mechanism]?.(config);
  if (!scheme) return undefined;
  const schemes: SecurityScheme["schemes"] = { [mechanism]: scheme };
  // Another instance's forwarded query authenticates with a proof made with the instance secret, on the query routes only.
  const peer = config.get("auth.peer.token.file") !== "";
  if (peer) schemes.peer = { type: "apiKey", in: "header", name: PEER_HEADER, description: "Another instance's proof: an HMAC made with the instance secret (server.auth.peer.token.file); forwarded queries only" };
  return {
    schemes,
    requirementsFor: (role, openToPeers) => [{ [mechanism]: [] }, ...(peer && openToPeers ? [{ peer: [] }] : [])],
  };
}
