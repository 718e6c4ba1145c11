/**
 * `sluice broker` standing in for a secured cluster, with librdkafka (kcat) as the client: SASL_SSL with SCRAM-SHA-512
 * (users from a file), and SASL_PLAINTEXT with SCRAM-SHA-256 and PLAIN; wrong passwords and clients without SASL
 * refused.
 */
import fs from "node:fs";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { createPki, type TestPki } from "../../helpers/certificates";
import { brokerPort, runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { stopProcess } from "../streams/wordcount-processes";
import { runKcat } from "./broker-test-kit";

const sasl = (protocol: string, mechanism: string, username: string, password: string) => ["-X", `security.protocol=${protocol}`, "-X", `sasl.mechanisms=${mechanism}`, "-X", `sasl.username=${username}`, "-X", `sasl.password=${password}`];

test("SASL_SSL with SCRAM-SHA-512: kcat produces and consumes with the right password and is refused with a wrong one", async () => {
  const pki: TestPki = createPki();
  const processes: SluiceProcess[] = [];
  try {
    const certificate = pki.issue("broker", "localhost", { server: true });
    const usersFile = path.join(pki.dir, "kafka-users");
    fs.writeFileSync(usersFile, "# the broker's users\nsluice-app:app-pass,with,commas\n\nops:ops-pass\n");
    const broker = runSluice([
      "broker",
      "--broker.port=0",
      "--broker.storage=memory",
      "--broker.security.protocol=SASL_SSL",
      `--broker.ssl.certificate.location=${certificate.cert}`,
      `--broker.ssl.key.location=${certificate.key}`,
      "--broker.sasl.mechanisms=SCRAM-SHA-512",
      `--broker.sasl.users=@${usersFile}`,
      "--broker.acls=ALLOW User:sluice-app WRITE,CREATE TOPIC:secured; ALLOW User:ops READ TOPIC:secured",
    ]);
    processes.push(broker);
    const bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
    const tls = ["-X", `ssl.ca.location=${pki.ca}`];

    const produced = await runKcat(bootstrap, [...sasl("SASL_SSL", "SCRAM-SHA-512", "sluice-app", "app-pass,with,commas"), ...tls, "-P", "-t", "secured"], "one\ntwo\nthree\n");
    assert.is(produced.code, 0, produced.stderr);
    const consumed = await runKcat(bootstrap, [...sasl("SASL_SSL", "SCRAM-SHA-512", "ops", "ops-pass"), ...tls, "-C", "-t", "secured", "-e", "-q"]);
    assert.is(consumed.code, 0, consumed.stderr);
    assert.equal(consumed.stdout.trim().split("\n"), ["one", "two", "three"]);

    // A refused kcat waits out its metadata timeout (-m) however soon it is refused: the three run side by side.
    const [refused, otherMechanism, tlsOnly] = await Promise.all([
      runKcat(bootstrap, [...sasl("SASL_SSL", "SCRAM-SHA-512", "ops", "not-the-password"), ...tls, "-L", "-m", "5"]),
      runKcat(bootstrap, [...sasl("SASL_SSL", "PLAIN", "ops", "ops-pass"), ...tls, "-L", "-m", "5"]),
      runKcat(bootstrap, ["-X", "security.protocol=SSL", ...tls, "-L", "-m", "3"]),
    ]);
    assert.not.equal(refused.code, 0);
    assert.match(refused.stderr, /Authentication failed: invalid credentials with SASL mechanism SCRAM-SHA-512/);
    assert.not.equal(otherMechanism.code, 0);
    assert.match(otherMechanism.stderr, /PLAIN.*not supported by broker|Unsupported SASL mechanism/i);
    assert.not.equal(tlsOnly.code, 0, "a client that does not authenticate gets nothing");
    assert.not.ok(broker.stderr().includes("ops-pass") || broker.stderr().includes("app-pass"), "no password in the broker's log");
  } finally {
    for (const process of processes) await stopProcess(process, "SIGTERM");
    pki.remove();
  }
});

test("SASL_PLAINTEXT with SCRAM-SHA-256 and PLAIN", async () => {
  const broker = runSluice(["broker", "--broker.port=0", "--broker.storage=memory", "--broker.security.protocol=SASL_PLAINTEXT", "--broker.sasl.mechanisms=SCRAM-SHA-256,PLAIN", "--broker.sasl.users=alice:alice-pass", "--broker.super.users=User:alice"]);
  try {
    const bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
    // The refused client waits out its metadata timeout: it runs beside the others.
    const refusing = runKcat(bootstrap, [...sasl("SASL_PLAINTEXT", "PLAIN", "alice", "wrong"), "-L", "-m", "5"]);
    const produced = await runKcat(bootstrap, [...sasl("SASL_PLAINTEXT", "SCRAM-SHA-256", "alice", "alice-pass"), "-P", "-t", "plain-words"], "scram\n");
    assert.is(produced.code, 0, produced.stderr);
    const consumed = await runKcat(bootstrap, [...sasl("SASL_PLAINTEXT", "PLAIN", "alice", "alice-pass"), "-C", "-t", "plain-words", "-e", "-q"]);
    assert.is(consumed.code, 0, consumed.stderr);
    assert.is(consumed.stdout.trim(), "scram");
    const refused = await refusing;
    assert.match(refused.stderr, /Authentication failed: invalid credentials with SASL mechanism PLAIN/);
  } finally {
    await stopProcess(broker, "SIGTERM");
  }
});

test.run();
