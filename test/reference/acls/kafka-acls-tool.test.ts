/**
 * Apache Kafka's `kafka-acls` tool (AclCommand of Kafka 4.4, from the reference jars) against a secured `sluice
 * broker`: a super user adds, lists and removes ACLs; they apply at once and survive a restart of the broker; a user
 * without ACLs on the cluster is refused; the tool's --producer and --consumer ACLs are what Kafka's console producer
 * and consumer need.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { JavaProcesses, KAFKA_TOOLS } from "../../helpers/reference-java";
import { brokerPort, runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { runKcat } from "../../providers/broker/broker-test-kit";
import { stopProcess } from "../../providers/streams/wordcount-processes";

const java = new JavaProcesses();

function clientProperties(dir: string, user: string): string {
  const file = path.join(dir, `${user}.properties`);
  const jaas = `org.apache.kafka.common.security.plain.PlainLoginModule required username="${user}" password="${user}-secret";`;
  fs.writeFileSync(file, ["security.protocol=SASL_PLAINTEXT", "sasl.mechanism=PLAIN", `sasl.jaas.config=${jaas}`, ""].join("\n"), { mode: 0o600 });
  return file;
}

function startBroker(dataDir: string): SluiceProcess {
  return runSluice([
    "broker",
    "--broker.port=0",
    `--broker.data.dir=${dataDir}`,
    "--broker.security.protocol=SASL_PLAINTEXT",
    "--broker.sasl.mechanisms=PLAIN",
    "--broker.sasl.users=admin:admin-secret,alice:alice-secret,bob:bob-secret",
    "--broker.super.users=User:admin",
  ]);
}

const kcatAs = (user: string) => ["-X", "security.protocol=SASL_PLAINTEXT", "-X", "sasl.mechanisms=PLAIN", "-X", `sasl.username=${user}`, "-X", `sasl.password=${user}-secret`];

test("kafka-acls adds, lists and removes ACLs on a secured sluice broker; they apply at once and survive a restart", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-kafka-acls-"));
  const processes: SluiceProcess[] = [];
  try {
    const dataDir = path.join(dir, "broker");
    let broker = startBroker(dataDir);
    processes.push(broker);
    let bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
    const admin = clientProperties(dir, "admin");
    const acls = (properties: string, ...args: string[]) => java.run(KAFKA_TOOLS.acls, ["--bootstrap-server", bootstrap, "--command-config", properties, ...args]);
    const aliceWrites = () => runKcat(bootstrap, [...kcatAs("alice"), "-P", "-t", "alice-orders"], "order\n");

    assert.not.equal((await aliceWrites()).code, 0, "alice has no ACL yet");
    const added = await acls(admin, "--add", "--allow-principal", "User:alice", "--operation", "Write", "--operation", "Create", "--topic", "alice-", "--resource-pattern-type", "prefixed");
    assert.is(added.code, 0, added.stderr);
    const written = await aliceWrites();
    assert.is(written.code, 0, written.stderr);

    await stopProcess(broker, "SIGTERM");
    broker = startBroker(dataDir);
    processes.push(broker);
    bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
    const listed = await acls(admin, "--list", "--topic", "alice-", "--resource-pattern-type", "prefixed");
    assert.is(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /ResourcePattern\(resourceType=TOPIC, name=alice-, patternType=PREFIXED\)/);
    assert.match(listed.stdout, /\(principal=User:alice, host=\*, operation=WRITE, permissionType=ALLOW\)/);
    assert.match(listed.stdout, /\(principal=User:alice, host=\*, operation=CREATE, permissionType=ALLOW\)/);
    assert.is((await aliceWrites()).code, 0, "the ACLs survived the restart");

    const refused = await acls(clientProperties(dir, "alice"), "--list");
    assert.not.equal(refused.code, 0);
    assert.match(`${refused.stdout}${refused.stderr}`, /ClusterAuthorization/);

    const removed = await acls(admin, "--remove", "--force", "--allow-principal", "User:alice", "--operation", "Write", "--topic", "alice-", "--resource-pattern-type", "prefixed");
    assert.is(removed.code, 0, removed.stderr);
    const after = await acls(admin, "--list", "--principal", "User:alice");
    assert.not.match(after.stdout, /operation=WRITE/);
    assert.match(after.stdout, /operation=CREATE/);
    assert.not.equal((await aliceWrites()).code, 0, "alice can no longer write");
  } finally {
    await java.stopAll();
    for (const process of processes.reverse()) await stopProcess(process, "SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("kafka-acls --producer and --consumer grant what Kafka's console producer and consumer need, on that topic and group only", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-kafka-acls-"));
  const broker = startBroker(path.join(dir, "broker"));
  try {
    const bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
    const admin = clientProperties(dir, "admin");
    const bob = clientProperties(dir, "bob");
    const run = async (tool: keyof typeof KAFKA_TOOLS, properties: string, args: string[], input?: string) => {
      const ran = await java.run(KAFKA_TOOLS[tool], ["--bootstrap-server", bootstrap, "--command-config", properties, ...args], { input });
      return { ...ran, output: `${ran.stdout}${ran.stderr}` };
    };
    const succeeds = async (...args: Parameters<typeof run>) => {
      const ran = await run(...args);
      assert.is(ran.code, 0, `${args[0]} ${args[2].join(" ")}:\n${ran.output}`);
      return ran.stdout;
    };
    await succeeds("topics", admin, ["--create", "--topic", "bob-events", "--partitions", "1"]);
    await succeeds("topics", admin, ["--create", "--topic", "ledger", "--partitions", "1"]);
    await succeeds("acls", admin, ["--add", "--allow-principal", "User:bob", "--producer", "--topic", "bob-events"]);
    await succeeds("acls", admin, ["--add", "--allow-principal", "User:bob", "--consumer", "--topic", "bob-events", "--group", "bob-readers"]);

    await succeeds("consoleProducer", bob, ["--topic", "bob-events"], "first\nsecond\n");
    const consumed = await succeeds("consoleConsumer", bob, ["--topic", "bob-events", "--group", "bob-readers", "--from-beginning", "--max-messages", "2"]);
    assert.equal(consumed.trim().split("\n"), ["first", "second"]);

    const foreign = await run("consoleProducer", bob, ["--topic", "ledger", "--command-property", "max.block.ms=10000"], "forged\n");
    assert.match(foreign.output, /TopicAuthorizationException: Not authorized to access topics: \[ledger\]/);
    const otherGroup = await run("consoleConsumer", bob, ["--topic", "bob-events", "--group", "someone-else", "--from-beginning", "--max-messages", "1", "--timeout-ms", "20000"]);
    // The console consumer logs the refusal and ends, with exit code 0.
    assert.match(otherGroup.output, /GroupAuthorizationException: Not authorized to access group: someone-else/);
    assert.match(otherGroup.output, /Processed a total of 0 messages/);
  } finally {
    await java.stopAll();
    await stopProcess(broker, "SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
