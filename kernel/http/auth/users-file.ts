/**
 * The users file of basic authentication: one `name:scrypt-hash:role` line per user (`#` comments and blank
 * lines allowed), never a plain-text password. `sluice passwd` writes it; the basic authenticator reads it, and
 * rewrites a line whose hash is of an older, lower cost when its user logs in.
 */
import fs from "node:fs";
import path from "node:path";
import { StartupError } from "../../errors";
import { readLines } from "../configured-file";
import { parsePasswordHash, type PasswordHash } from "./password-hash";
import { isRole, ROLES, type Role } from "./principal";

export interface UserEntry {
  hash: PasswordHash;
  /** The hash as the file holds it. */
  stored: string;
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
    users.set(name, { hash, stored, role });
  });
  return users;
}

/** Adds or replaces `name`'s line. */
export function writeUser(file: string, name: string, hash: string, role: Role): void {
  const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n") : [];
  const kept = lines.filter((line) => line.trim() !== "" && line.split(":", 1)[0] !== name);
  replaceFile(file, [...kept, `${name}:${hash}:${role}`, ""].join("\n"));
}

/**
 * Replaces the hash of `name`'s line, if the line still holds `expected` (someone may have changed it meanwhile).
 * Returns whether it did.
 */
export function replaceHash(file: string, name: string, expected: string, hash: string): boolean {
  let replaced = false;
  const lines = fs.readFileSync(file, "utf8").split("\n").map((line) => {
    const [lineName, stored, ...rest] = line.split(":");
    if (lineName !== name || stored !== expected || line.startsWith("#")) return line;
    replaced = true;
    return [lineName, hash, ...rest].join(":");
  });
  if (replaced) replaceFile(file, lines.join("\n"));
  return replaced;
}

/** The file replaced in one rename, so a reader never sees half of it, with the permissions it had (0600 when new). */
function replaceFile(file: string, text: string): void {
  const mode = fs.existsSync(file) ? fs.statSync(file).mode & 0o777 : 0o600;
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.tmp`);
  fs.writeFileSync(temporary, text, { mode });
  fs.chmodSync(temporary, mode);
  fs.renameSync(temporary, file);
}
