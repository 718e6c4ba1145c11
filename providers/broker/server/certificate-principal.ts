/**
 * Who a TLS client is, as Kafka's default principal builder names it: `User:` and its certificate's subject as an
 * RFC 2253 string (`User:CN=app,O=Example\, Inc,C=US`, most specific part first), or `User:ANONYMOUS` without a
 * certificate.
 */
import type { Socket } from "node:net";
import { TLSSocket } from "node:tls";
import { ANONYMOUS_PRINCIPAL } from "../acl/acl-binding";

export function certificatePrincipal(socket: Socket): string {
  const certificate = socket instanceof TLSSocket ? socket.getPeerX509Certificate() : undefined;
  if (!certificate) return ANONYMOUS_PRINCIPAL;
  // Node.js lists the subject's parts in the certificate's order, one per line, escaped as RFC 2253 escapes them;
  // RFC 2253 lists them in reverse.
  return `User:${certificate.subject.split("\n").filter((part) => part !== "").reverse().join(",")}`;
}
