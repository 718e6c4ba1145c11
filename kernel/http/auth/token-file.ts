/**
 * Opaque bearer tokens from `server.auth.tokens.file`: one `<sha256 hex of the token>:role[:name]` line per
 * token, so the file never holds a usable token. Every line is compared, in constant time.
 */
import { StartupError } from "../../errors";
import { readLines } from "../configured-file";
import { badCredentials, type AuthOutcome } from "./authenticator";
import { isRole, ROLES, type Principal } from "./principal";
import { digestsEqual, sha256 } from "./secret-digest";

interface TokenEntry {
  digest: Buffer;
  principal: Principal;
}

export class TokenFile {
  private entries: TokenEntry[];

  constructor(readonly file: string, private readonly key: string) {
    this.entries = this.read();
  }

  reload(): void {
    this.entries = this.read();
  }

  authenticate(token: string): AuthOutcome {
    const digest = sha256(token);
    let found: Principal | undefined;
    for (const entry of this.entries) if (digestsEqual(entry.digest, digest)) found = entry.principal;
    return found ?? badCredentials("unknown bearer token");
  }

  private read(): TokenEntry[] {
    const entries: TokenEntry[] = [];
    readLines(this.file, this.key).forEach((line, index) => {
      if (line.trim() === "" || line.startsWith("#")) return;
      const [hex, role, name, ...rest] = line.trim().split(":");
      if (rest.length > 0 || !/^[0-9a-f]{64}$/i.test(hex) || !isRole(role)) {
        throw new StartupError(`${this.file}:${index + 1} (${this.key}) is not '<sha256 hex>:role[:name]' with a role among ${ROLES.join(", ")}`);
      }
      entries.push({ digest: Buffer.from(hex, "hex"), principal: { name: name || `token-${hex.slice(0, 8).toLowerCase()}`, role, mechanism: "bearer" } });
    });
    return entries;
  }
}
