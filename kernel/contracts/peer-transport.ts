import type { Agent, IncomingMessage } from "node:http";
import { token } from "./token";

/**
 * Container token of how one instance asks another (forwarded interactive queries): over HTTPS with the
 * configured CA when TLS is on, carrying what authenticates the forwarded request there.
 */
export const PEER_TRANSPORT = token<PeerTransport>("sluice.http.PeerTransport");

export interface PeerTransport {
  readonly protocol: "http:" | "https:";
  readonly agent: Agent;
  /**
   * Headers that authenticate a request forwarded on behalf of `caller`: the instance credential
   * (`server.auth.peer.token.file`) when there is one, else the caller's own `Authorization` (none without a caller:
   * a query a plugin asks on its own).
   */
  headers(caller: IncomingMessage | undefined): Record<string, string>;
}
