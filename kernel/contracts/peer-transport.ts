import type { Agent, IncomingHttpHeaders } from "node:http";
import { token } from "./token";

/**
 * Container token of how one instance asks another (forwarded interactive queries): over HTTPS with the
 * configured CA when TLS is on, each request and its answer proven with the instance secret — never the caller's
 * credentials (kernel/http/auth/peer-proof.ts).
 */
export const PEER_TRANSPORT = token<PeerTransport>("sluice.http.PeerTransport");

/** The proof of one forwarded request, and the check of its answer. */
export interface PeerRequestProof {
  headers: Record<string, string>;
  /** Whether the answer comes from an instance holding the instance secret (always, when there is none to check). */
  answerProven(status: number, headers: IncomingHttpHeaders, body: Buffer): boolean;
}

export interface PeerTransport {
  readonly protocol: "http:" | "https:";
  readonly agent: Agent;
  /** Why this instance forwards no query (authentication is on and there is no instance secret); undefined when it does. */
  readonly refusal: string | undefined;
  prove(method: string, path: string, body: Buffer): PeerRequestProof;
}
