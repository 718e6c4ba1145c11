import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { hashPassword } from "../../../kernel/http/auth/password-hash";
import { writeUser } from "../../../kernel/http/auth/users-file";
import { eventually } from "../../helpers/eventually";
import { http, startSluice, type RunningSluice } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * The smaller rules of a secured Sluice: public paths are public for reads only; /health tells the anonymous UP or
 * DOWN only; a changed password and a removed token stop working within seconds; a body nested too deep is a 400
 * naming the limit; a client that hangs up still leaves its address in the log and the audit.
 */
const test = suite<{ sluice: SluiceWithExamples; dir: string; users: string; logged: string[] }>("secured Sluice, the smaller rules");
const PASSWORD = "correct horse battery";
const basic = (user: string, password = PASSWORD) => ({ Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}` });

test.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-security-settings-"));
  context.users = await writeUsersFile(context.dir, PASSWORD, { vera: "viewer", otto: "operator", ada: "admin" });
  context.logged = [];
  context.sluice = await startSluiceWithExamples(
    {
      "log.level": "info",
      "server.auth.mechanism": "basic",
      "server.auth.users.file": context.users,
      "server.auth.public.paths": "/health,/api/v1/streams",
      "server.auth.failure.delay.ms": "0",
      "server.auth.files.check.ms": "100",
    },
    undefined,
    (line) => context.logged.push(line),
  );
});
test.after(async ({ sluice, dir }) => {
  await sluice?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a public path is public for reads only: deploy, terminate and stop under it need credentials", async ({ sluice }) => {
  assert.is((await http(`${sluice.url}/api/v1/streams`)).status, 200);
  const writes: [string, string][] = [
    ["POST", "/api/v1/streams"],
    ["DELETE", "/api/v1/streams/wordcount"],
    ["POST", "/api/v1/streams/wordcount/stop"],
    ["POST", "/api/v1/streams/wordcount/pause"],
  ];
  for (const [method, route] of writes) {
    const res = await http(`${sluice.url}${route}`, { method, headers: { "Content-Type": "application/json" }, body: '{"topology": "WordCount", "config": {"application.id": "x"}}' });
    assert.is(res.status, 401, `${method} ${route}`);
  }
  assert.ok((await http(`${sluice.url}/api/v1/streams`)).json().includes("wordcount"), "nothing changed");
});

test("the anonymous /health and /health/readiness say UP or DOWN only; a viewer sees the applications", async ({ sluice }) => {
  await eventually(async () => (await http(`${sluice.url}/health/readiness`, { headers: basic("vera") })).status === 200, { timeoutMs: 20_000, what: "the examples ready" });
  assert.equal((await http(`${sluice.url}/health`)).json(), { status: "UP" });
  assert.equal((await http(`${sluice.url}/health/readiness`)).json(), { status: "UP" });
  const full = (await http(`${sluice.url}/health`, { headers: basic("vera") })).json();
  assert.is(full.applications.wordcount, "RUNNING");
  assert.equal((await http(`${sluice.url}/health/readiness`, { headers: basic("vera") })).json(), { status: "UP", not_ready: {} });
  assert.is((await http(`${sluice.url}/health`, { headers: basic("vera", "wrong") })).status, 401, "credentials sent are checked");
});

test("a password changed in the users file stops working within seconds, the new one works", async ({ sluice, users }) => {
  assert.is((await http(`${sluice.url}/api/v1/applications`, { headers: basic("otto") })).status, 200);
  writeUser(users, "otto", await hashPassword("a new password of otto"), "operator");
  await eventually(async () => (await http(`${sluice.url}/api/v1/applications`, { headers: basic("otto") })).status === 401, { timeoutMs: 10_000, what: "the old password refused" });
  assert.is((await http(`${sluice.url}/api/v1/applications`, { headers: basic("otto", "a new password of otto") })).status, 200);
});

test("a JSON body nested deeper than 64 levels is a 400 naming the limit, never a 500", async ({ sluice }) => {
  for (const body of [`{"topology": "WordCount", "config": ${"[".repeat(100_000)}${"]".repeat(100_000)}}`, `${'{"a":'.repeat(65)}1${"}".repeat(65)}`]) {
    const res = await http(`${sluice.url}/api/v1/streams`, { method: "POST", headers: { ...basic("ada"), "Content-Type": "application/json" }, body });
    assert.is(res.status, 400);
    assert.is(res.json().message, "Request body nests arrays and objects deeper than 64 levels");
  }
});

/** Sends a request and closes the connection before any answer. */
function hangUp(sluice: RunningSluice, lines: string[]): Promise<void> {
  const [host, port] = sluice.kernel.serverAddress()!.split(":");
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), host, () => socket.end(`${lines.join("\r\n")}\r\n\r\n`, () => socket.destroy()));
    socket.on("close", () => resolve());
    socket.on("error", reject);
  });
}

test("a client that hangs up leaves its address in the failed-login line and the audit line", async ({ sluice, logged }) => {
  const wrong = Buffer.from("vera:not her password").toString("base64");
  await hangUp(sluice, ["GET /api/v1/applications HTTP/1.1", "Host: sluice", `Authorization: Basic ${wrong}`]);
  await eventually(() => logged.some((line) => line.includes('"authentication failed"') && line.includes("/api/v1/applications")), { what: "the failed login logged" });
  const failed = JSON.parse(logged.find((line) => line.includes('"authentication failed"') && line.includes("/api/v1/applications"))!);
  assert.is(failed.source, "127.0.0.1");

  const credentials = basic("ada").Authorization;
  await hangUp(sluice, ["POST /api/v1/streams/wordcount/restart HTTP/1.1", "Host: sluice", `Authorization: ${credentials}`, "Content-Length: 0"]);
  await eventually(() => logged.some((line) => line.includes('"msg":"operation"') && line.includes("/api/v1/streams/wordcount/restart")), { what: "the operation's audit line" });
  const audit = JSON.parse(logged.find((line) => line.includes('"msg":"operation"') && line.includes("/api/v1/streams/wordcount/restart"))!);
  assert.is(audit.source, "127.0.0.1");
  assert.is(audit.principal, "ada");
  await eventually(async () => (await http(`${sluice.url}/api/v1/streams/wordcount`, { headers: basic("vera") })).json().state?.state === "RUNNING", { timeoutMs: 20_000, what: "wordcount back" });
});

test.run();

const tokens = suite("a removed bearer token stops working within seconds");

tokens("removing a token's line from the tokens file refuses it, without a reload signal", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-token-removed-"));
  const file = path.join(dir, "tokens");
  const line = (token: string, role: string) => `${createHash("sha256").update(token).digest("hex")}:${role}`;
  fs.writeFileSync(file, `${line("kept-token-of-the-test", "viewer")}\n${line("revoked-token-of-the-test", "viewer")}\n`);
  const sluice = await startSluice({ overrides: { "server.auth.mechanism": "bearer", "server.auth.tokens.file": file, "server.auth.failure.delay.ms": "0", "server.auth.files.check.ms": "100" } });
  const streams = (token: string) => http(`${sluice.url}/api/v1/streams`, { headers: { Authorization: `Bearer ${token}` } });
  try {
    assert.is((await streams("revoked-token-of-the-test")).status, 200);
    fs.writeFileSync(path.join(dir, "tokens.new"), `${line("kept-token-of-the-test", "viewer")}\n`);
    fs.renameSync(path.join(dir, "tokens.new"), file);
    await eventually(async () => (await streams("revoked-token-of-the-test")).status === 401, { timeoutMs: 10_000, what: "the removed token refused" });
    assert.is((await streams("kept-token-of-the-test")).status, 200);
  } finally {
    await sluice.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

tokens.run();
