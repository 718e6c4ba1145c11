import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http, REPO_ROOT, startSluice } from "../../helpers/sluice";
import { SLUICE_BIN } from "../../helpers/sluice-process";

/* `sluice passwd` as a user runs it: the password on standard input, the users file written, then used to log in. */
const test = suite<{ dir: string; file: string }>("sluice passwd");

test.before((context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-passwd-"));
  context.file = path.join(context.dir, "users");
});
test.after(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

function passwd(args: string[], stdin: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [SLUICE_BIN, "passwd", ...args], { cwd: REPO_ROOT, env: { PATH: process.env.PATH } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk) => (stdout += chunk));
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.end(stdin);
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, stdout, stderr })));
}

const login = (url: string, user: string, password: string) =>
  http(`${url}/api/v1/streams/nope/restart`, { method: "POST", headers: { Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` } });

test("adds users, replaces a user's line, and the file logs them in with their roles, new users after a reload; no password is stored in clear", async ({ file }) => {
  assert.is((await passwd(["--file", file, "--user", "alice", "--role", "viewer"], "first password\n")).code, 0);
  const added = await passwd(["--file", file, "--user", "bob", "--role", "operator"], "bob's password\n");
  assert.is(added.code, 0);
  assert.is(added.stdout, `user 'bob' (operator) written to ${file}\n`);
  assert.is((await passwd(["--file", file, "--user", "alice", "--role", "operator"], "second password\n")).code, 0);
  const lines = fs.readFileSync(file, "utf8").trim().split("\n");
  assert.equal(lines.map((line) => [line.split(":")[0], line.split(":")[2]]), [["bob", "operator"], ["alice", "operator"]]);
  assert.ok(lines.every((line) => /^\w+:scrypt\$131072\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:\w+$/.test(line)), lines.join("\n"));
  assert.not.match(fs.readFileSync(file, "utf8"), /password/);

  const sluice = await startSluice({ overrides: { "server.auth.mechanism": "basic", "server.auth.users.file": file, "server.auth.failure.delay.ms": "0" } });
  try {
    assert.is((await login(sluice.url, "alice", "second password")).status, 404);
    assert.is((await login(sluice.url, "alice", "first password")).status, 401);
    assert.is((await login(sluice.url, "bob", "bob's password")).status, 404);
    assert.is((await passwd(["--file", file, "--user", "carol", "--role", "operator"], "carol's password\n")).code, 0);
    await eventually(async () => (await login(sluice.url, "carol", "carol's password")).status === 404, { what: "the changed file to be read again" });
  } finally {
    await sluice.close();
  }
});

test("bad arguments and short passwords exit 1 with a message, and leave the file alone", async ({ file }) => {
  const before = fs.readFileSync(file, "utf8");
  const cases: [string[], string, RegExp][] = [
    [["--file", file, "--user", "carol", "--role", "root"], "long enough password\n", /role 'root' is not one of viewer, operator, admin/],
    [["--file", file, "--user", "ca:rol", "--role", "viewer"], "long enough password\n", /must not be empty or hold ':'/],
    [["--file", file, "--role", "viewer"], "long enough password\n", /passwd needs --file FILE --user NAME --role ROLE/],
    [["--file", file, "--user", "carol", "--role", "viewer"], "short\n", /at least 8 characters/],
    [["--file", file, "--user", "carol", "--role", "viewer", "--shell"], "long enough password\n", /Unknown option '--shell'/],
  ];
  for (const [args, stdin, message] of cases) {
    const result = await passwd(args, stdin);
    assert.is(result.code, 1, args.join(" "));
    assert.match(result.stderr, message);
  }
  assert.is(fs.readFileSync(file, "utf8"), before);
});

test.run();
