import path from "node:path";
import { hashPassword } from "../../kernel/http/auth/password-hash";
import type { Role } from "../../kernel/http/auth/principal";
import { writeUser } from "../../kernel/http/auth/users-file";

/** Writes `<dir>/users`, where every user in `roles` has `password` and the given role; answers the file's path. */
export async function writeUsersFile(dir: string, password: string, roles: Readonly<Record<string, Role>>): Promise<string> {
  const users = path.join(dir, "users");
  for (const [name, role] of Object.entries(roles)) writeUser(users, name, await hashPassword(password), role);
  return users;
}
