/**
 * Sluice on a cluster that speaks TLS only and requires client certificates (mutual TLS): a standalone `sluice broker`
 * with broker.security.protocol=SSL, librdkafka (kcat) as another client, and a `sluice start` whose wordcount reads,
 * writes, commits and answers queries over TLS. Certificates are made with openssl for the test.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createPki, type TestPki } from "../../helpers/certificates";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { EXAMPLES_PACKAGE } from "../../helpers/streams";
import { countsOf, stopProcess } from "./wordcount-processes";

function kcat(args: string[], input = ""): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile("kcat", args, { timeout: 20_000 }, (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) || 1 : 0, stdout, stderr }));
    child.stdin!.end(input);
  });
}

test("wordcount runs exactly over mutual TLS, beside kcat; clients without TLS or without a certificate are refused", async () => {
  const pki: TestPki = createPki();
  const processes: SluiceProcess[] = [];
  // State of its own: left in the working directory, a later run would take it for this fresh broker's.
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-tls-state-"));
  try {
    const broker = pki.issue("broker", "localhost", { server: true });
    const client = pki.issue("client", "sluice-client");
    // Clients with certificates are told apart, so the broker checks ACLs; the client's certificate names a super user.
    const brokerProcess = runSluice(["broker", "--broker.port=0", "--broker.storage=memory", "--broker.security.protocol=SSL", `--broker.ssl.certificate.location=${broker.cert}`, `--broker.ssl.key.location=${broker.key}`, `--broker.ssl.ca.location=${pki.ca}`, "--broker.super.users=User:CN=sluice-client"]);
    processes.push(brokerProcess);
    const port = await eventually(() => brokerProcess.logs().find((line) => line.msg === "broker listening")?.port as number | undefined, { timeoutMs: 15_000, what: "the TLS broker" });
    const bootstrap = `127.0.0.1:${port}`;
    const ssl = ["-X", "security.protocol=SSL", "-X", `ssl.ca.location=${pki.ca}`, "-X", `ssl.certificate.location=${client.cert}`, "-X", `ssl.key.location=${client.key}`];

    const lines = ["tls secures the words", "the words count over tls"];
    const produced = await kcat(["-b", bootstrap, ...ssl, "-P", "-t", "words"], `${lines.join("\n")}\n`);
    assert.is(produced.code, 0, produced.stderr);
    // A refused kcat waits out its metadata timeout (-m) however soon it is refused: the two run side by side.
    const [plain, noCertificate] = await Promise.all([
      kcat(["-b", bootstrap, "-L", "-m", "3"]),
      kcat(["-b", bootstrap, "-X", "security.protocol=SSL", "-X", `ssl.ca.location=${pki.ca}`, "-L", "-m", "3"]),
    ]);
    assert.not.equal(plain.code, 0, "a client without TLS gets no metadata");
    assert.not.equal(noCertificate.code, 0, "a TLS client without a certificate is refused");

    const sluice = runSluice([
      "start",
      "--server.port=0",
      `--plugins.packages=${EXAMPLES_PACKAGE}`,
      `--streams.state.dir=${stateDir}`,
      `--streams.bootstrap.servers=${bootstrap}`,
      "--streams.auto.create.topics=true",
      "--streams.security.protocol=SSL",
      `--streams.ssl.ca.location=${pki.ca}`,
      `--streams.ssl.certificate.location=${client.cert}`,
      `--streams.ssl.key.location=${client.key}`,
      "--streams.ssl.key.password=not-needed-here",
    ]);
    processes.push(sluice);
    const url = await sluice.url(30_000);
    const expected = { count: 1, over: 1, secures: 1, the: 2, tls: 2, words: 2 };
    await eventually(async () => JSON.stringify(await countsOf(url)) === JSON.stringify(expected), { timeoutMs: 30_000, what: "wordcount to count over TLS" });
    const offsets = (await http(`${url}/api/v1/streams/wordcount/offsets`)).json();
    assert.ok(offsets.consumers[0].positions.some((position: { topic: string; lag: number }) => position.topic === "words" && position.lag === 0), JSON.stringify(offsets));
    const config = (await http(`${url}/api/v1/streams/wordcount/config`)).json();
    assert.is(config["ssl.key.password"], "[hidden]");
    assert.not.ok(sluice.stderr().includes("not-needed-here"), "the key password never reaches the log");

    const consumed = await kcat(["-b", bootstrap, ...ssl, "-C", "-t", "word-counts", "-e", "-q", "-s", "value=Q", "-f", "%k=%s\n"]);
    assert.is(consumed.code, 0, consumed.stderr);
    assert.ok(consumed.stdout.includes("tls=2"), consumed.stdout);
  } finally {
    for (const process of processes.reverse()) await stopProcess(process, "SIGTERM");
    pki.remove();
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test.run();
