import crypto from "node:crypto";
import fs from "node:fs";
import type { IncomingMessage } from "node:http";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BasicAuthenticator } from "../../../kernel/http/auth/basic-authenticator";
import { isRejection } from "../../../kernel/http/auth/authenticator";
import { PASSWORD_COST } from "../../../kernel/http/auth/password-hash";
import { HashQueue } from "../../../kernel/hash-queue";
import { createLogger } from "../../../kernel/logger";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * What a Basic login costs in scrypt: starting costs none, and an unknown user's login costs one check at today's
 * cost, as a known user's does, so that timing does not tell which names exist.
 */
const test = suite<{ dir: string; users: string }>("basic authentication's hashing");
const PASSWORD = "correct horse battery";

test.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-basic-"));
  context.users = await writeUsersFile(context.dir, PASSWORD, { vera: "viewer" });
});
test.after(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

/** The cost (N) of every scrypt that `work` runs. */
async function scryptCosts(work: () => Promise<void>): Promise<number[]> {
  const costs: number[] = [];
  const original = crypto.scrypt;
  crypto.scrypt = ((...args: unknown[]) => {
    costs.push((args[3] as crypto.ScryptOptions).N!);
    return (original as (...given: unknown[]) => void)(...args);
  }) as typeof crypto.scrypt;
  try {
    await work();
  } finally {
    crypto.scrypt = original;
  }
  return costs;
}

const login = (user: string, password: string) => ({ headers: { authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` } }) as IncomingMessage;

test("starting costs no hash; an unknown user and a wrong password each cost one check at today's cost", async ({ users }) => {
  let authenticator: BasicAuthenticator | undefined;
  const settings = { file: users, key: "server.auth.users.file", cacheTtlMs: 0, userFailureLimit: 10, hashes: new HashQueue(1, 1), logger: createLogger("silent") };
  assert.equal(await scryptCosts(async () => void (authenticator = new BasicAuthenticator(settings))), []);
  for (const [user, password, reason] of [
    ["mallory", PASSWORD, "wrong user name or password (user 'mallory')"],
    ["vera", "guess", "wrong user name or password (user 'vera')"],
  ]) {
    let outcome: unknown;
    assert.equal(await scryptCosts(async () => void (outcome = await authenticator!.authenticate(login(user, password), "127.0.0.1"))), [PASSWORD_COST.N]);
    assert.ok(isRejection(outcome as never));
    assert.is((outcome as { reason: string }).reason, reason);
  }
  assert.equal(await authenticator!.authenticate(login("vera", PASSWORD), "127.0.0.1"), { name: "vera", role: "viewer", mechanism: "basic" });
});

test.run();
