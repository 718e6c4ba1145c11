/**
 * The PeerTransport the kernel registers (see the contract): one keep-alive agent, rebuilt when certificates are
 * reloaded, and the instance secret that proves each forwarded request and checks its answer.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";
import type { PeerRequestProof, PeerTransport } from "../contracts/peer-transport";
import { PEER_ANSWER_HEADER, PEER_HEADER, type PeerSecret } from "./auth/peer-proof";
import { readConfiguredFile } from "./configured-file";
import { secureContextOf, type TlsFiles } from "./tls-settings";

export interface PeerSettings {
  tls: TlsFiles | undefined;
  /** `server.auth.peer.ca.location`; default: `server.ssl.ca.location`, else the system's CAs. */
  caFile: string | undefined;
  /** The instance secret (the content of `server.auth.peer.token.file`). */
  secret: PeerSecret | undefined;
  /** Authentication is on: without a secret, queries are not forwarded. */
  authenticated: boolean;
  /** With mtls, this instance shows its own certificate to the others (the handshake asks for one). */
  presentCertificate: boolean;
}

const UNPROVEN: PeerRequestProof = { headers: {}, answerProven: () => true };

export class PeerClient implements PeerTransport {
  readonly protocol: "http:" | "https:";
  readonly refusal: string | undefined;
  agent!: http.Agent;

  constructor(private readonly settings: PeerSettings) {
    this.protocol = settings.tls ? "https:" : "http:";
    this.refusal =
      settings.authenticated && !settings.secret
        ? "queries are not forwarded to other instances: authentication is on and no instance secret is configured (server.auth.peer.token.file); the caller's credentials are never forwarded"
        : undefined;
    this.reload();
  }

  reload(): void {
    const previous = this.agent;
    const { tls, caFile, presentCertificate } = this.settings;
    if (!tls) this.agent = new http.Agent({ keepAlive: true });
    else {
      const own = secureContextOf(tls);
      const ca = caFile ? readConfiguredFile(caFile, "server.auth.peer.ca.location") : own.ca;
      this.agent = new https.Agent({ keepAlive: true, ...(ca ? { ca } : {}), ...(presentCertificate ? { key: own.key, cert: own.cert } : {}) });
    }
    previous?.destroy();
  }

  prove(method: string, path: string, body: Buffer): PeerRequestProof {
    const { secret } = this.settings;
    if (!secret) return UNPROVEN;
    const { header, nonce } = secret.signRequest(method, path, body);
    return {
      headers: { [PEER_HEADER]: header },
      answerProven: (status: number, headers: IncomingHttpHeaders, answer: Buffer) => secret.answerProven(nonce, status, answer, headers[PEER_ANSWER_HEADER]),
    };
  }
}
