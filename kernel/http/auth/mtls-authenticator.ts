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
  /** `CN:<name>`, `DNS:<name>`, … → role. */
  private readonly roles = new Map<string, Role>();

  constructor(mapping: readonly string[]) {
    for (const item of mapping) {
      const colon = item.lastIndexOf(":");
      const role = item.slice(colon + 1).trim();
      if (colon <= 0 || !isRole(role)) throw new StartupError(`server.auth.mtls.roles: '${item}' is not 'name:role' with a role among ${ROLES.join(", ")}`);
      this.roles.set(mappedName(item.slice(0, colon).trim()), role);
    }
  }

  authenticate(req: IncomingMessage): AuthOutcome {
    const socket = req.socket as TLSSocket;
    if (typeof socket.getPeerCertificate !== "function") return noCredentials("a client certificate is required (TLS is off)");
    const certificate = socket.getPeerCertificate();
    if (!certificate || Object.keys(certificate).length === 0) return noCredentials("a client certificate is required");
    if (!socket.authorized) return badCredentials(`client certificate not trusted: ${String(socket.authorizationError)}`);
    const cn = certificate.subject?.CN;
    const names = [...(Array.isArray(cn) ? cn : cn ? [cn] : []).map((name) => `CN:${name}`), ...alternativeNames(certificate.subjectaltname)];
    for (const name of names) {
      const role = this.roles.get(name);
      if (role) return { name: name.slice(name.indexOf(":") + 1), role, mechanism: "mtls" };
    }
    const shown = names[0]?.replace(/^CN:/, "") ?? "without a name";
    return badCredentials(`client certificate '${shown}' has no role in server.auth.mtls.roles`);
  }
}

const SAN_TYPES: Record<string, string> = { dns: "DNS", email: "email", uri: "URI", ip: "IP", "ip address": "IP" };

/** A configured name as the authenticator keys it: `CN:<name>` unless it names a SAN type. */
function mappedName(name: string): string {
  const colon = name.indexOf(":");
  const type = colon > 0 ? SAN_TYPES[name.slice(0, colon).toLowerCase()] : undefined;
  if (type) return `${type}:${name.slice(colon + 1)}`;
  return `CN:${name.replace(/^CN=/, "")}`;
}

/** Node's `DNS:a, IP Address:1.2.3.4, email:b` as `DNS:a`, `IP:1.2.3.4`, `email:b`. */
function alternativeNames(subjectAltName: string | undefined): string[] {
  if (!subjectAltName) return [];
  return subjectAltName.split(", ").flatMap((entry) => {
    const colon = entry.indexOf(":");
    const type = SAN_TYPES[entry.slice(0, colon).toLowerCase()];
    return type ? [`${type}:${entry.slice(colon + 1)}`] : [];
  });
}
