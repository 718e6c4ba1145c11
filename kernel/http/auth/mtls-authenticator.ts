/**
 * `server.auth.mechanism=mtls`: the client certificate, verified by the TLS handshake against
 * `server.ssl.ca.location`, names the principal. `server.auth.mtls.roles` maps names to roles
 * (`name:role` items); a name is matched against the subject's CN, then each subject alternative name value
 * (`DNS:`, `email:`, `URI:`, `IP Address:` prefixes removed). A certificate none of whose names is mapped is refused.
 */
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import { StartupError } from "../../errors";
import { badCredentials, noCredentials, type AuthOutcome, type Authenticator } from "./authenticator";
import { isRole, ROLES, type Role } from "./principal";

export class MtlsAuthenticator implements Authenticator {
  readonly scheme = "Certificate";
  private readonly roles = new Map<string, Role>();

  constructor(mapping: readonly string[]) {
    for (const item of mapping) {
      const colon = item.lastIndexOf(":");
      const role = item.slice(colon + 1).trim();
      if (colon <= 0 || !isRole(role)) throw new StartupError(`server.auth.mtls.roles: '${item}' is not 'name:role' with a role among ${ROLES.join(", ")}`);
      this.roles.set(item.slice(0, colon).trim().replace(/^CN=/, ""), role);
    }
  }

  authenticate(req: IncomingMessage): AuthOutcome {
    const socket = req.socket as TLSSocket;
    if (typeof socket.getPeerCertificate !== "function") return noCredentials("a client certificate is required (TLS is off)");
    const certificate = socket.getPeerCertificate();
    if (!certificate || Object.keys(certificate).length === 0) return noCredentials("a client certificate is required");
    if (!socket.authorized) return badCredentials(`client certificate not trusted: ${String(socket.authorizationError)}`);
    const cn = certificate.subject?.CN;
    const names = [...(Array.isArray(cn) ? cn : cn ? [cn] : []), ...alternativeNames(certificate.subjectaltname)];
    for (const name of names) {
      const role = this.roles.get(name);
      if (role) return { name, role, mechanism: "mtls" };
    }
    return badCredentials(`client certificate '${names[0] ?? "without a name"}' has no role in server.auth.mtls.roles`);
  }
}

function alternativeNames(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  return subjectAltName.split(", ").map((entry) => entry.slice(entry.indexOf(":") + 1));
}
