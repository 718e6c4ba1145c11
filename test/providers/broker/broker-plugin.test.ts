import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { KAFKA_BOOTSTRAP, KAFKA_CLUSTER, resolveBootstrapServers, type KafkaBootstrap, type KafkaCluster } from "../../../kernel/contracts/kafka-bootstrap";
import type { Plugin, PluginContext } from "../../../kernel/contracts/plugin";
import { eventually } from "../../helpers/eventually";
import { discoveredDeclarations } from "../../../kernel/config/plugin-configuration";
import { Kernel } from "../../../kernel/kernel";
import { ServiceLoader } from "../../../kernel/service-loader";
import { http, REPO_ROOT, startSluice } from "../../helpers/sluice";
import { runSluice } from "../../helpers/sluice-process";

const plugin = suite("embedded broker inside Sluice");

plugin("with no bootstrap.servers Sluice starts the broker in a worker and kafkajs can use it", async () => {
  const sluice = await startSluice({ overrides: { "broker.port": "0", "broker.storage": "memory" } });
  const kafka = new Kafka({ brokers: sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers(), logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  const admin = kafka.admin();
  try {
    await producer.connect();
    await producer.send({ topic: "plugin-topic", messages: [{ key: "k", value: "v" }] });
    await admin.connect();
    assert.ok((await admin.listTopics()).includes("plugin-topic"));
    const offsets = await admin.fetchTopicOffsets("plugin-topic");
    assert.equal(offsets.map((o) => o.high), ["1"]);
  } finally {
    await producer.disconnect();
    await admin.disconnect();
    await sluice.close();
  }
});

plugin("a configured bootstrap.servers starts no broker", async () => {
  const sluice = await startSluice({ overrides: { "streams.bootstrap.servers": "kafka.example:9092", "broker.port": "0" } });
  try {
    assert.is(sluice.kernel.components.isRegistered(KAFKA_BOOTSTRAP), false);
  } finally {
    await sluice.close();
  }
});

plugin("sluice broker runs the broker alone, keeps data in broker.data.dir, and exits 0 on SIGTERM", async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-broker-cli-"));
  const run = runSluice(["broker", "--broker.port=0", `--broker.data.dir=${dataDir}`]);
  try {
    const listening = await eventually(() => run.logs().find((line) => line.msg === "broker listening"), { what: "the broker to listen" });
    const kafka = new Kafka({ brokers: [`127.0.0.1:${listening.port}`], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: "standalone", numPartitions: 2 }] });
    await admin.disconnect();
    assert.ok(fs.readdirSync(dataDir, { recursive: true }).some((entry) => String(entry).startsWith("standalone-1")));
    run.child.kill("SIGTERM");
    assert.equal(await run.exited, { code: 0, signal: null });
  } finally {
    run.child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

/** Makes `root` a Sluice package whose built-in plugins are this one's but for the descriptor lines naming `plugin`. */
function installedWithout(root: string, plugin: string): void {
  const descriptor = fs.readFileSync(path.join(REPO_ROOT, "META-INF/services/sluice.kernel.Plugin"), "utf8");
  fs.mkdirSync(path.join(root, "META-INF/services"), { recursive: true });
  fs.writeFileSync(path.join(root, "META-INF/services/sluice.kernel.Plugin"), descriptor.split("\n").filter((line) => !line.includes(plugin)).join("\n"));
  fs.symlinkSync(path.join(REPO_ROOT, "dist"), path.join(root, "dist"));
  fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "sluice", version: "0.0.0-test" }));
}

plugin("without the broker's descriptor line its keys are gone: setting one stops startup naming its section", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-nobroker-"));
  const kernel = (overrides: Record<string, string>) =>
    new Kernel({ root, sluiceRoot: root, env: {}, overrides: { "server.port": "0", "log.level": "silent", "streams.bootstrap.servers": "127.0.0.1:1", ...overrides } });
  try {
    installedWithout(root, "broker-plugin#");
    const declared = (await discoveredDeclarations(new ServiceLoader({ root, sluiceRoot: root }))).sections().map((section) => section.name);
    assert.equal(declared.sort(), ["applications", "log", "plugins", "schema", "server", "server.health", "server.operation", "server.query", "server.sse", "server.webui", "streams"]);
    await kernel({ "broker.port": "0" }).start().then(
      () => assert.unreachable("broker.port is nobody's key"),
      (error: Error) => assert.match(error.message, /'broker\.port' \(from command-line flag --broker\.port\) is in section 'broker', which no loaded plugin declares/),
    );
    const running = kernel({});
    await running.start();
    try {
      assert.is(running.components.isRegistered(KAFKA_BOOTSTRAP), false);
      assert.is((await http(`http://${running.serverAddress()}/health`)).status, 200);
    } finally {
      await running.close();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

plugin("the broker learns that a cluster is configured from KAFKA_CLUSTER, not by reading the streams runtime's key", async () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-cluster-"));
  // Another plugin in place of the streams package's cluster plugin names the cluster; streams.bootstrap.servers is unset.
  const namesCluster: Plugin & KafkaCluster = {
    provides: [KAFKA_CLUSTER],
    configure: ({ components }: PluginContext) => components.register(KAFKA_CLUSTER, { useValue: namesCluster }),
    configuredServers: () => ["kafka.example:9092"],
  };
  try {
    installedWithout(root, "kafka-cluster-plugin#");
    const kernel = new Kernel({ root, sluiceRoot: root, env: {}, overrides: { "server.port": "0", "log.level": "silent", "broker.port": "0", "broker.storage": "memory" }, services: { "sluice.kernel.Plugin": [namesCluster] } });
    await kernel.start();
    try {
      assert.is(kernel.components.isRegistered(KAFKA_BOOTSTRAP), false, "no embedded broker");
      assert.equal(resolveBootstrapServers(kernel.components), ["kafka.example:9092"]);
    } finally {
      await kernel.close();
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

plugin.run();
