/** The broker's users as `broker.sasl.users` lists them: `name:password` entries (the name ends at the first colon). */
import { StartupError } from "../../../kernel/errors";
import type { SaslUser } from "./sasl-credentials";

/** Blank entries and `#` comments are skipped; `source` names where the entries come from, in errors (never a password). */
export function parseSaslUsers(entries: readonly string[], source: string): SaslUser[] {
  const users = new Map<string, SaslUser>();
  entries.forEach((raw, index) => {
    const entry = raw.trim();
    if (entry === "" || entry.startsWith("#")) return;
    const colon = entry.indexOf(":");
    const name = entry.slice(0, Math.max(colon, 0));
    if (colon <= 0 || colon === entry.length - 1) throw new StartupError(`${source}: entry ${index + 1} is not name:password`);
    if (users.has(name)) throw new StartupError(`${source}: user '${name}' is listed twice`);
    users.set(name, { name, password: entry.slice(colon + 1) });
  });
  return [...users.values()];
}
