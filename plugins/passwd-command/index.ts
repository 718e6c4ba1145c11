/**
 * `sluice passwd --file FILE --user NAME --role ROLE`: reads a password from standard input (its first line)
 * and adds or replaces NAME's line in the users file of basic authentication, as a salted scrypt hash.
 */
import { parseArgs } from "node:util";
import { type CliCommand, hashPassword, isRole, isUserName, ROLES, StartupError, writeUser } from "sluice";

const MIN_PASSWORD_LENGTH = 8;

export class PasswdCommand implements CliCommand {
  readonly name = "passwd";
  readonly usage = "--file FILE --user NAME --role ROLE";
  readonly summary = "add or replace a user of basic authentication; the password is read from stdin";
  readonly ownArguments = true;

  async run({ argv = [] }: { argv?: string[] }): Promise<{ close(): Promise<void> }> {
    const { file, user, role } = options(argv);
    const password = await firstLine(process.stdin);
    if (password.length < MIN_PASSWORD_LENGTH) throw new StartupError(`the password read from standard input must have at least ${MIN_PASSWORD_LENGTH} characters`);
    writeUser(file, user, await hashPassword(password), role);
    process.stdout.write(`user '${user}' (${role}) written to ${file}\n`);
    return { close: async () => undefined };
  }
}

function options(argv: string[]) {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args: argv, options: { file: { type: "string" }, user: { type: "string" }, role: { type: "string" } }, strict: true }));
  } catch (error) {
    throw new StartupError(`passwd: ${(error as Error).message}; usage: sluice passwd --file FILE --user NAME --role ROLE`);
  }
  const { file, user, role } = values as { file?: string; user?: string; role?: string };
  if (!file || !user || !role) throw new StartupError("passwd needs --file FILE --user NAME --role ROLE");
  if (!isUserName(user)) throw new StartupError(`passwd: user name '${user}' must not be empty or hold ':' or spaces`);
  if (!isRole(role)) throw new StartupError(`passwd: role '${role}' is not one of ${ROLES.join(", ")}`);
  return { file, user, role };
}

async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = "";
  for await (const chunk of input) {
    text += chunk.toString();
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/, 1)[0];
}
