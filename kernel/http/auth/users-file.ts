/**
 * The users file of basic authentication: one `name:scrypt-hash:role` line per user (`#` comments and blank
 * lines allowed), never a plain-text password. `sluice passwd` writes it; the basic authenticator reads it.
 */
import fs from "node:fs";
import path from "node:path";
import { StartupError } from "../../errors";
import { readLines } from "../configured-file";
import { parsePasswordHash } from "./password-hash";
import { isRole, ROLES, type Role } from "./principal";

export interface UserEntry {
  hash: NonNullable<ReturnType<typeof parsePasswordHash>>;
  role: Role;
}

const NAME = /^[^:\s]+$/;

export function isUserName(name: string): boolean {
  return NAME.test(name);
}

export function readUsersFile(file: string, key: string): Map<string, UserEntry> {
  const users = new Map<string, UserEntry>();
  readLines(file, key).forEach((line, index) => {
    if (line.trim() === "" || line.startsWith("#")) return;
    const [name, stored, role, ...rest] = line.trim().split(":");
    const hash = parsePasswordHash(stored ?? "");
    if (rest.length > 0 || !isUserName(name) || !hash || !isRole(role)) {
      throw new StartupError(`${file}:${index + 1} (${key}) is not 'name:scrypt-hash:role' with a role among ${ROLES.join(", ")}`);
    }
    users.set(name, { hash, role });
  });
  return users;
}

/** Adds or replaces `name`'s line; the file is replaced in one rename, so a reader never sees half of it. */
export function writeUser(file: string, name: string, hash: string, role: Role): void {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n") : [];
  const kept = lines.filter((line) => line.trim() !== "" && line.split(":", 1)[0] !== name);
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, [...kept, `${name}:${hash}:${role}`, ""].join("\n"), { mode: 0o600 });
  fs.renameSync(temporary, file);
}
