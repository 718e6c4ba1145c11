/**
 * The curl command that sends the same request as the console. It never holds a secret: with basic auth curl
 * asks for the password (`-u user`), a bearer token is read from $SLUICE_TOKEN.
 */
import type { Credentials } from "../../api/credentials";

const quoted = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

export function curlCommand(method: string, url: string, body: unknown, credentials: Credentials | undefined): string {
  const parts = ["curl", "-sS", "-X", method, quoted(url)];
  if (credentials?.scheme === "basic") parts.push("-u", quoted(credentials.principal));
  if (credentials?.scheme === "bearer") parts.push("-H", `"Authorization: Bearer $SLUICE_TOKEN"`);
  if (body !== undefined) parts.push("-H", quoted("Content-Type: application/json"), "-d", quoted(JSON.stringify(body)));
  return parts.join(" ");
}
