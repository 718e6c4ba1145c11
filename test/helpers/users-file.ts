import path from "node:path";
import { hashPassword } from "../../kernel/http/auth/password-hash";
import type { Role } from "../../kernel/http/auth/principal";
import { writeUser } from "../../kernel/http/auth/users-file";

/**
 * One hash per password in a test process (a worker runs many files): at today's cost a hash is a scrypt of 128 MiB
 * and most of a second of a core, and what a test checks is the server's hashing, not the fixture's.
 */
const hashes = new Map<string, Promise<string>>();

/** Writes `<dir>/users`, where every user in `roles` has `password` and the given role; answers the file's path. */
export async function writeUsersFile(dir: string, password: string, roles: Readonly<Record<string, Role>>): Promise<string> {
  const users = path.join(dir, "users");
  if (!hashes.has(password)) hashes.set(password, hashPassword(password));
  const hash = await hashes.get(password)!;
  for (const [name, role] of Object.entries(roles)) writeUser(users, name, hash, role);
  return users;
}
