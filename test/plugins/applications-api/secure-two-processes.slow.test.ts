import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { createPki, type TestPki } from "../../helpers/certificates";
import { eventually } from "../../helpers/eventually";
import { runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { EXAMPLES_PACKAGE } from "../../helpers/streams";
import { request } from "../../helpers/tls-client";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * Two `sluice start` processes with TLS and authentication, forwarding queries to each other over HTTPS, proven
 * with the instance secret (and, with client certificates, each showing its own in the handshake): a viewer's remote
 * `get` and fan-out `all` answer from both; a forged peer proof is refused, whatever else the request carries.
 */

const LINES = ["kafka streams", "kafka sluice", "secure store", "kafka"];
const EXPECTED: Record<string, number> = {};
for (const word of LINES.join(" ").split(" ")) EXPECTED[word] = (EXPECTED[word] ?? 0) + 1;
const EXPECTED_COUNTS = Object.fromEntries(Object.entries(EXPECTED).sort());

const PASSWORD = "viewer password";
const PEER_SECRET = "shared-instance-secret-4f1c";
const viewer = { Authorization: `Basic ${Buffer.from(`vera:${PASSWORD}`).toString("base64")}` };
const remote = { remote_access_allowed: true, query_timeout_ms: 5_000 };
const countsOf = (answer: any) =>
  Object.fromEntries(answer.result.success.flatMap((entry: any) => entry.records.map((record: any) => [record.key, record.value])).sort());

/** How callers authenticate: basic, or client certificates (each instance shows its own in the handshake when it forwards). */
type Mode = "basic" | "mtls";

function secureInstances(name: string, mode: Mode): void {
  const test = suite(name);
  const spawned: SluiceProcess[] = [];
  const dirs: string[] = [];
  let pki: TestPki;
  let instances: { url: string; server: string }[] = [];
  /** The viewer's client certificate in mtls mode, sent with every request (the handshake requires one). */
  let clientCertificate: { cert?: string; key?: string } = {};

  const query = (url: string, body: unknown, headers: Record<string, string> = viewer) =>
    request(`${url}/api/v1/applications/wordcount/stores/counts`, { method: "POST", body: JSON.stringify(body), headers, ca: pki.ca, ...clientCertificate });

  test.before(async () => {
    pki = createPki();
    const server = pki.issue("server", "sluice-instance", { server: true });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-secure-two-"));
    dirs.push(dir);
    const users = await writeUsersFile(dir, PASSWORD, { vera: "viewer" });
    const peerSecret = path.join(dir, "peer-secret");
    fs.writeFileSync(peerSecret, `${PEER_SECRET}\n`);
    if (mode === "mtls") clientCertificate = pki.issue("vera", "vera");
    const authentication = {
      basic: ["--server.auth.mechanism=basic", `--server.auth.users.file=${users}`],
      mtls: ["--server.ssl.client.auth=required", "--server.auth.mechanism=mtls", "--server.auth.mtls.roles=vera:viewer"],
    }[mode];

    const broker = runSluice(["broker", "--broker.port=0", "--broker.storage=memory"]);
    spawned.push(broker);
    const port = await eventually(() => broker.logs().find((line) => line.msg === "broker listening")?.port as number | undefined, { what: "the broker to listen" });
    const bootstrap = `127.0.0.1:${port}`;
    const kafka = new Kafka({ clientId: "secure-two-processes-test", brokers: [bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: "words", numPartitions: 4 }], waitForLeaders: true });
    await admin.disconnect();

    const start = () => {
      const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-secure-two-state-"));
      dirs.push(stateDir);
      const process = runSluice([
        "start",
        `--plugins.packages=${EXAMPLES_PACKAGE}`,
        `--streams.bootstrap.servers=${bootstrap}`,
        "--streams.auto.create.topics=true",
        "--server.port=0",
        `--streams.state.dir=${stateDir}`,
        "--streams.session.timeout.ms=6000",
        "--server.ssl.enable=true",
        `--server.ssl.key.location=${server.key}`,
        `--server.ssl.certificate.location=${server.cert}`,
        `--server.ssl.ca.location=${pki.ca}`,
        ...authentication,
        `--server.auth.peer.token.file=${peerSecret}`,
        "--server.auth.failure.delay.ms=0",
      ]);
      spawned.push(process);
      return process;
    };
    const processes = [start(), start()];
    instances = await Promise.all(processes.map(async (process) => {
      const url = await process.url(30_000);
      return { url, server: url.replace("https://", "") };
    }));
    await eventually(
      async () => {
        const record = (await request(`${instances[0].url}/api/v1/applications/wordcount`, { headers: viewer, ca: pki.ca, ...clientCertificate })).json();
        return record.instances?.length === 2 && record.instances.every((instance: { stores: string[] }) => instance.stores.includes("counts"));
      },
      { timeoutMs: 30_000, what: "both processes to host the counts store" },
    );
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: "words", messages: LINES.map((value) => ({ value })), acks: -1 });
    await producer.disconnect();
    await eventually(async () => JSON.stringify(countsOf((await query(instances[0].url, { type: "key_value", set_options: remote, query: { all: {} } })).json())) === JSON.stringify(EXPECTED_COUNTS), {
      timeoutMs: 30_000,
      what: "every word counted",
    });
  });

  test.after(async () => {
    for (const process of spawned.reverse()) {
      if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill("SIGTERM");
      await process.exited;
    }
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
    pki?.remove();
  });

  test("a viewer's remote get answers every word from either instance, some of them forwarded over HTTPS", async () => {
    // Which instance owns which words is the assignor's choice: across the two, some answers are forwarded.
    let forwarded = 0;
    for (const instance of instances) {
      for (const [word, count] of Object.entries(EXPECTED)) {
        const answer = (await query(instance.url, { type: "key_value", set_options: remote, query: { get: { key: word } } })).json();
        assert.is(answer.status, "SUCCESS", word);
        assert.equal(answer.result.success.flatMap((entry: any) => entry.records), [{ key: word, value: count }]);
        if (answer.result.success[0].remote) forwarded++;
      }
    }
    assert.ok(forwarded > 0, "some keys live on the other instance");
  });

  test("a viewer's fan-out all has one success entry per instance and every word", async () => {
    for (const instance of instances) {
      const answer = (await query(instance.url, { type: "key_value", set_options: remote, query: { all: {} } })).json();
      assert.is(answer.status, "SUCCESS");
      assert.equal(answer.result.failure, []);
      assert.equal(answer.result.success.map((entry: any) => entry.server).sort(), instances.map((other) => other.server).sort());
      assert.equal(countsOf(answer), EXPECTED_COUNTS);
    }
  });

  test("a forged peer proof is refused with 401, with or without a viewer's own credentials", async () => {
    const forwardedBody = { type: "key_value", set_options: { remote_access_allowed: false }, query: { all: {} } };
    const forged = `v1 ${Date.now()} ${"0".repeat(32)} ${"A".repeat(43)}`;
    for (const headers of [{ "X-Sluice-Peer": forged }, { ...viewer, "X-Sluice-Peer": forged }, { "X-Sluice-Peer": PEER_SECRET }]) {
      const res = await query(instances[0].url, forwardedBody, headers);
      assert.is(res.status, 401);
      assert.match(res.json().message, /^Authentication required: the peer (proof does not hold|header is not a proof)/);
    }
  });

  test.run();
}

secureInstances("two instances with TLS, basic auth and an instance secret", "basic");
secureInstances("two instances with client certificates and an instance secret", "mtls");
