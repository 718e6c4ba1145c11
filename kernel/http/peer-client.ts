/** The PeerTransport the kernel registers (see the contract): one keep-alive agent, rebuilt when certificates are reloaded. */
import http, { type IncomingMessage } from "node:http";
import https from "node:https";
import type { PeerTransport } from "../contracts/peer-transport";
import { PEER_HEADER } from "./access-guard";
import { secureContextOf, type TlsFiles } from "./tls-settings";
import { readConfiguredFile } from "./configured-file";

export interface PeerSettings {
  tls: TlsFiles | undefined;
  /** `server.auth.peer.ca.location`; default: `server.ssl.ca.location`, else the system's CAs. */
  caFile: string | undefined;
  /** The instance credential (the content of `server.auth.peer.token.file`). */
  token: string | undefined;
  /** With mtls, this instance shows its own certificate to the others. */
  presentCertificate: boolean;
}

export class PeerClient implements PeerTransport {
  readonly protocol: "http:" | "https:";
  agent!: http.Agent;

  constructor(private readonly settings: PeerSettings) {
    this.protocol = settings.tls ? "https:" : "http:";
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

  headers(caller: IncomingMessage | undefined): Record<string, string> {
    if (this.settings.token !== undefined) return { [PEER_HEADER]: this.settings.token };
    const authorization = caller?.headers.authorization;
    return authorization === undefined ? {} : { authorization };
  }
}
