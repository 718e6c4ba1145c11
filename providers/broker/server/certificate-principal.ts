/**
 * Who a TLS client is, as Kafka's default principal builder names it: `User:` and its certificate's subject as an
 * RFC 2253 string (`User:CN=app,O=Example`, most specific part first), or `User:ANONYMOUS` without a certificate.
 */
import type { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { ANONYMOUS_PRINCIPAL } from "../acl/acl-binding";

export function certificatePrincipal(socket: Socket): string {
  const certificate = socket instanceof TLSSocket ? socket.getPeerX509Certificate() : undefined;
  if (!certificate) return ANONYMOUS_PRINCIPAL;
  // Node.js lists the subject's parts in the certificate's order, one per line; RFC 2253 reverses them.
  const parts = certificate.subject.split("\n").filter((part) => part !== "");
  return `User:${parts.reverse().map(escapeRdn).join(",")}`;
}

/** Escapes the value of `TYPE=value` as RFC 2253 requires. */
function escapeRdn(part: string): string {
  const equals = part.indexOf("=");
  const value = part.slice(equals + 1).replace(/[,+"\\<>;]/g, (c) => `\\${c}`).replace(/^[ #]|[ ]$/g, (c) => `\\${c}`);
  return `${part.slice(0, equals + 1)}${value}`;
}
