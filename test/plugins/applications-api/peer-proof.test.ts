import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { RunningBroker } from "../../../providers/broker";
import { PEER_ANSWER_HEADER, PEER_HEADER, PeerSecret } from "../../../kernel/http/auth/peer-proof";
import { eventually } from "../../helpers/eventually";
import { http as fetchHttp } from "../../helpers/sluice";
import { startBrokerWithTopics, startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * Who gets a forwarded query, and whose answer counts. An instance with authentication and the instance secret
 * shares a group with one that advertises a server someone else runs (anyone who can join the group can): that
 * server receives neither the caller's credentials nor the secret, and its forged SUCCESS is refused. A proof made
 * with the secret admits to the query route only, once. An instance with authentication and no secret forwards
 * nothing, and says why.
 */
const test = suite("peers prove themselves; group members that cannot are not asked, and not believed");

const SECRET = "instance-secret-of-the-test-7d2e9a";
const PASSWORD = "viewer password";
const viewer = { Authorization: `Basic ${Buffer.from(`vera:${PASSWORD}`).toString("base64")}` };
const ALL = { type: "key_value", set_options: { remote_access_allowed: true, query_timeout_ms: 5_000 }, query: { all: {} } };

let broker: RunningBroker;
let honest: SluiceWithExamples;
let joined: SluiceWithExamples;
let unproven: SluiceWithExamples;
let rogue: http.Server;
let rogueAddress = "";
const received: http.IncomingHttpHeaders[] = [];
const unprovenLogs: string[] = [];
let dir = "";

const queryOn = (sluice: SluiceWithExamples, body: unknown, headers: Record<string, string> = viewer) =>
  fetchHttp(`${sluice.url}/api/v1/applications/wordcount/stores/counts`, { method: "POST", headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(body) });

test.before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-peer-proof-"));
  const users = await writeUsersFile(dir, PASSWORD, { vera: "viewer" });
  const secretFile = path.join(dir, "secret");
  fs.writeFileSync(secretFile, `${SECRET}\n`);
  // Answers every forwarded query with records nobody wrote.
  rogue = http.createServer((req, res) => {
    received.push(req.headers);
    req.resume();
    req.on("end", () => {
      const forged = { result: { success: [{ server: rogueAddress, total: 1, records: [{ key: "forged", value: 999 }] }], failure: [] }, status: "SUCCESS", took: 1, timeout: false };
      res.writeHead(200, { "Content-Type": "application/json", [PEER_ANSWER_HEADER]: "A".repeat(43) }).end(JSON.stringify(forged));
    });
  });
  await new Promise<void>((resolve) => rogue.listen(0, "127.0.0.1", resolve));
  rogueAddress = `127.0.0.1:${(rogue.address() as AddressInfo).port}`;

  let bootstrap: string;
  ({ broker, bootstrap } = await startBrokerWithTopics(["words"]));
  const cluster = { "streams.bootstrap.servers": bootstrap, "streams.auto.create.topics": "true", "applications.pageviews.autostart": "false" };
  const secured = { "server.auth.mechanism": "basic", "server.auth.users.file": users, "server.auth.failure.delay.ms": "0" };
  honest = await startSluiceWithExamples({ ...cluster, ...secured, "server.auth.peer.token.file": secretFile });
  // A member of the group whose advertised server is not a Sluice at all.
  joined = await startSluiceWithExamples({ ...cluster, "streams.application.server": rogueAddress });
  unproven = await startSluiceWithExamples({ ...cluster, ...secured, "log.level": "warn" }, undefined, (line) => unprovenLogs.push(line));
  await eventually(
    async () => {
      const instances = (await fetchHttp(`${honest.url}/api/v1/applications/wordcount`, { headers: viewer })).json().instances ?? [];
      return instances.length === 3 && instances.every((instance: { stores: string[] }) => instance.stores.includes("counts"));
    },
    { timeoutMs: 30_000, what: "three members hosting the counts store" },
  );
  await honest.produce("words", ["a b c d e f g h i j k l m n o p"].map((value) => ({ value })));
});

test.after(async () => {
  await unproven?.close();
  await joined?.close();
  await honest?.close();
  await broker?.close();
  rogue?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a group member's server gets no credential and its forged SUCCESS is refused, never merged", async () => {
  const answer = (await queryOn(honest, ALL)).json();
  const refused = answer.result.failure.find((entry: { server: string }) => entry.server === rogueAddress);
  assert.ok(refused, JSON.stringify(answer));
  assert.match(refused.errors[0].message, `the answer of ${rogueAddress} (HTTP 200) does not prove it comes from an instance holding the instance secret`);
  assert.not.ok(JSON.stringify(answer.result.success).includes("forged"));
  assert.ok(received.length > 0, "the rogue server was asked");
  for (const headers of received) {
    assert.is(headers.authorization, undefined);
    assert.not.ok(JSON.stringify(headers).includes(SECRET));
    assert.match(String(headers[PEER_HEADER]), /^v1 \d+ [0-9a-f]{32} [A-Za-z0-9_-]{43}$/);
  }
});

test("a proof made with the secret admits to the query route once, and to no other route", async () => {
  const secret = new PeerSecret(Buffer.from(SECRET));
  const route = "/api/v1/applications/wordcount/stores/counts";
  const body = Buffer.from(JSON.stringify({ type: "key_value", set_options: { remote_access_allowed: false }, query: { all: {} } }));
  const { header, nonce } = secret.signRequest("POST", route, body);
  const send = () => fetchHttp(`${honest.url}${route}`, { method: "POST", headers: { [PEER_HEADER]: header, "Content-Type": "application/json" }, body });
  const res = await send();
  assert.is(res.status, 200, res.text);
  assert.ok(secret.answerProven(nonce, 200, Buffer.from(res.text), res.headers.get(PEER_ANSWER_HEADER) ?? undefined), "the answer is signed");
  const replayed = await send();
  assert.is(replayed.status, 401);
  assert.match(replayed.json().message, "the peer proof does not hold for this request");

  const streams = secret.signRequest("GET", "/api/v1/streams", Buffer.alloc(0));
  const listing = await fetchHttp(`${honest.url}/api/v1/streams`, { headers: { [PEER_HEADER]: streams.header } });
  assert.is(listing.status, 403);
  assert.is(listing.json().message, "GET /api/v1/streams is not open to other instances: the instance secret admits forwarded queries only");
  const other = new PeerSecret(Buffer.from("another-secret-entirely-00000000"));
  const wrong = other.signRequest("POST", route, body);
  assert.is((await fetchHttp(`${honest.url}${route}`, { method: "POST", headers: { [PEER_HEADER]: wrong.header, "Content-Type": "application/json" }, body })).status, 401);
});

test("with authentication and no instance secret, queries are not forwarded, and the answer and the log say why", async () => {
  const answer = (await queryOn(unproven, ALL)).json();
  const others = answer.result.failure.filter((entry: { remote: boolean }) => entry.remote);
  assert.is(others.length, 2, JSON.stringify(answer));
  for (const entry of others) assert.match(entry.errors[0].message, "not asked: queries are not forwarded to other instances: authentication is on and no instance secret is configured (server.auth.peer.token.file)");
  assert.ok(unprovenLogs.some((line) => line.includes("interactive queries answer from this instance's own partitions only")));
  assert.is(received.filter((headers) => headers.authorization !== undefined).length, 0);
});

test.run();
