import { randomBytes, scryptSync } from "node:crypto";
import fs from "node:fs";
import nodeHttp from "node:http";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { startSluice, type RunningSluice } from "../../helpers/sluice";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * Password hashing cannot be turned against the process: hashes run through a bounded queue (503 with Retry-After
 * past it) while a remembered login pays none; after a failed login every request with credentials from that
 * address waits, correct ones too; a user with many failures is refused (429) before any hash, except from an
 * address it logged in from; a hash of a lower cost is rewritten at today's cost, in place, permissions kept.
 */
const test = suite<{ dir: string; users: string }>("logins under a flood");
const PASSWORD = "correct horse battery";
const basic = (user: string, password = PASSWORD) => `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;

interface Answer {
  status: number;
  headers: nodeHttp.IncomingHttpHeaders;
  body: string;
}

/** A GET of /api/v1/streams with `authorization`, from `localAddress` (any 127.x address reaches the listener). */
function get(sluice: RunningSluice, authorization: string, localAddress = "127.0.0.1"): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = nodeHttp.request(`${sluice.url}/api/v1/streams`, { headers: { authorization }, localAddress, agent: false }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-login-flood-"));
  context.users = await writeUsersFile(context.dir, PASSWORD, { vera: "viewer" });
});
test.after(({ dir }) => fs.rmSync(dir, { recursive: true, force: true }));

const secured = (users: string, more: Record<string, string>) =>
  startSluice({ overrides: { "server.auth.mechanism": "basic", "server.auth.users.file": users, "server.auth.failure.delay.ms": "0", ...more } });

test("past the hash queue a login is a 503 with Retry-After at once, while a remembered login is answered", async ({ users }) => {
  const sluice = await secured(users, { "server.auth.hash.concurrency": "1", "server.auth.hash.queue.size": "1" });
  try {
    assert.is((await get(sluice, basic("vera"))).status, 200);
    const flood = Array.from({ length: 5 }, (_, index) => get(sluice, basic(`nobody-${index}`, "guess")));
    const remembered = await get(sluice, basic("vera"));
    assert.is(remembered.status, 200, "a remembered login needs no hash");
    const answers = await Promise.all(flood);
    const refused = answers.filter((answer) => answer.status === 503);
    assert.ok(refused.length >= 3, answers.map((answer) => answer.status).join(","));
    for (const answer of refused) {
      assert.is(answer.headers["retry-after"], "1");
      assert.match(JSON.parse(answer.body).message, "Authentication refused: not checked: 1 logins are already waiting for a password check");
    }
    assert.ok(answers.every((answer) => answer.status === 503 || answer.status === 401));
  } finally {
    await sluice.close();
  }
});

test("after a failed login from an address, its correct requests wait too", async ({ users }) => {
  const sluice = await secured(users, { "server.auth.failure.delay.ms": "400" });
  try {
    assert.is((await get(sluice, basic("vera"))).status, 200);
    assert.is((await get(sluice, basic("vera", "typo"))).status, 401);
    const sent = performance.now();
    assert.is((await get(sluice, basic("vera"))).status, 200);
    assert.ok(performance.now() - sent >= 380, `the correct request from the throttled address waited ${Math.round(performance.now() - sent)} ms`);
    assert.is((await get(sluice, basic("vera"), "127.0.0.2")).status, 200);
  } finally {
    await sluice.close();
  }
});

test("a user with too many failures is refused with 429 before any check, except from an address it logged in from", async ({ users }) => {
  const sluice = await secured(users, { "server.auth.failure.user.limit": "3", "server.auth.cache.ttl.ms": "0" });
  try {
    assert.is((await get(sluice, basic("vera"), "127.0.0.2")).status, 200);
    for (let attempt = 0; attempt < 3; attempt++) assert.is((await get(sluice, basic("vera", `guess ${attempt}`), "127.0.0.3")).status, 401);
    const locked = await get(sluice, basic("vera"), "127.0.0.3");
    assert.is(locked.status, 429);
    assert.match(JSON.parse(locked.body).message, "Authentication refused: too many failed logins of user 'vera'; not checked");
    assert.ok(Number(locked.headers["retry-after"]) > 0 && Number(locked.headers["retry-after"]) <= 60);
    assert.is((await get(sluice, basic("vera", "another guess"), "127.0.0.4")).status, 429, "wrong or right, not checked");
    assert.is((await get(sluice, basic("vera"), "127.0.0.2")).status, 200, "the address vera logged in from is not locked out");
  } finally {
    await sluice.close();
  }
});

test("a login with a hash of a lower cost rewrites it at OWASP's cost, in one rename, keeping the file's permissions", async ({ dir }) => {
  const users = path.join(dir, "old-users");
  const salt = randomBytes(16);
  const old = ["scrypt", 16_384, 8, 1, salt.toString("base64"), scryptSync(PASSWORD, salt, 32, { N: 16_384, r: 8, p: 1 }).toString("base64")].join("$");
  fs.writeFileSync(users, `# team\nvera:${old}:viewer\notto:${old}:operator\n`, { mode: 0o640 });
  fs.chmodSync(users, 0o640);
  const sluice = await secured(users, { "server.auth.cache.ttl.ms": "0" });
  try {
    assert.is((await get(sluice, basic("vera"))).status, 200);
    await eventually(() => /^vera:scrypt\$131072\$8\$1\$/m.test(fs.readFileSync(users, "utf8")), { what: "vera's line rewritten" });
    const text = fs.readFileSync(users, "utf8");
    assert.ok(text.startsWith("# team\n"));
    assert.ok(text.includes(`otto:${old}:operator`), "other lines are left as they were");
    assert.is(fs.statSync(users).mode & 0o777, 0o640);
    assert.is((await get(sluice, basic("vera"))).status, 200, "the new hash verifies");
    assert.is((await get(sluice, basic("vera", "wrong"))).status, 401);
  } finally {
    await sluice.close();
  }
});

test.run();
