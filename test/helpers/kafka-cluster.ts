/**
 * A real Apache Kafka cluster for the reference tier: three combined broker+controller KRaft nodes on loopback,
 * started from the reference jars (`reference/setup`), each a JVM of its own.
 *
 * Every node listens on
 * - PLAINTEXT (also the brokers' own listener between them),
 * - SASL_SSL with SCRAM-SHA-512 (users created at format time),
 * - SSL requiring a client certificate, with `mutualTls: true`,
 * - PROXIED, a PLAINTEXT listener advertised at other ports, with `proxiedListener` (for a test proxy between
 *   clients and brokers: test/helpers/request-recorder.ts),
 * - CONTROLLER for the KRaft quorum,
 * each on a free ephemeral port (a start that loses a port to another process is retried on fresh ones). The
 * certificates — a CA, one certificate per node for 127.0.0.1/localhost, a client certificate for mutual TLS — are
 * made with openssl in the cluster's temp dir. Topics get replication factor 3 and `min.insync.replicas=2` by
 * default, as do the internal ones (`__consumer_offsets`, the transaction log); fewer with fewer nodes.
 *
 * `startKafkaCluster()` resolves once every node is registered and a metadata request sees them all, and logs
 * how long that took. Nodes can be killed, stopped and started again for fault tests. Every JVM is stopped by its
 * pid at `close()`, and also when the test process exits or is interrupted, so a failing test leaves none behind.
 * Each node's log is `<node.dir>/server.log`; a node that dies while it is awaited fails the wait with the log's tail.
 *
 * Start one cluster per test file (it takes tens of seconds on a busy 2-core machine) and share it between the
 * file's tests.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Admin } from "kafkajs";
import { createPki, type KeyPair, type TestPki } from "./certificates";
import { eventually } from "./eventually";
import { REFERENCE_BIN, REFERENCE_DIR, kafkaTool, referenceKafkaVersion, requireReferenceJars } from "./kafka-tools";

export type KafkaListener = "PLAINTEXT" | "SASL_SSL" | "SSL" | "PROXIED";

export interface KafkaClusterOptions {
  /** Combined broker+controller nodes; 3 by default. */
  nodes?: number;
  /** Adds an SSL listener that requires a client certificate signed by the cluster's CA (`clientCertificate`). */
  mutualTls?: boolean;
  /** Adds a PLAINTEXT listener named PROXIED whose node `i` is advertised at 127.0.0.1:`advertisedPorts[i]`. */
  proxiedListener?: { advertisedPorts: readonly number[] };
  /** SCRAM-SHA-512 users, name → password; by default one, `sluice`, with a random password. */
  scramUsers?: Record<string, string>;
  /** Maximum heap of each node's JVM, in MiB (default 384). */
  heapMb?: number;
  /** JVM options of each node (default: serial GC and the C1 compiler only, which start and run lightest). */
  jvmOptions?: string;
  /** More server.properties entries, for every node (they win over the defaults). */
  serverProperties?: Record<string, string | number | boolean>;
}

export interface KafkaNode {
  readonly id: number;
  /** The ports the node listens on. */
  readonly ports: Readonly<Record<KafkaListener | "CONTROLLER", number | undefined>>;
  /** The ports it tells clients (the same but for PROXIED). */
  readonly advertisedPorts: Readonly<Record<KafkaListener, number | undefined>>;
  /** Holds server.properties, the data directory and server.log. */
  readonly dir: string;
  readonly dataDir: string;
  readonly logFile: string;
  /** The JVM's pid while the node runs. */
  readonly pid: number | undefined;
  readonly running: boolean;
}

export interface KafkaCluster {
  readonly version: string;
  readonly clusterId: string;
  readonly dir: string;
  readonly nodes: readonly KafkaNode[];
  readonly pki: TestPki;
  /** Signed by the cluster's CA, for the SSL listener (`mutualTls`). */
  readonly clientCertificate: KeyPair;
  readonly scramUsers: Readonly<Record<string, string>>;
  /** Milliseconds from the first format to a cluster that answers metadata with every broker. */
  readonly startupMs: number;
  /** `host:port,…` of the listener as advertised, on every node (running or not: clients find the live ones). */
  bootstrap(listener?: KafkaListener): string;
  /** A kafkajs client on PLAINTEXT, for setting up and inspecting (not the client under test). */
  kafkajs(clientId?: string): Kafka;
  /** Runs a Kafka command-line tool with `--bootstrap-server` on PLAINTEXT first; resolves its stdout, rejects on failure. */
  tool(tool: "kafka-topics" | "kafka-consumer-groups" | "kafka-console-consumer" | "kafka-console-producer" | "kafka-configs" | "kafka-broker-api-versions" | "kafka-get-offsets", args: string[], options?: { input?: string; timeoutMs?: number }): Promise<string>;
  /** The broker leading a partition now. */
  leaderOf(topic: string, partition: number): Promise<number>;
  /** SIGKILLs a node's JVM and waits for it to be gone. */
  kill(nodeId: number): Promise<void>;
  /** SIGTERM (a controlled shutdown), SIGKILL if it has not exited after `timeoutMs` (default 60 s). */
  stop(nodeId: number, timeoutMs?: number): Promise<void>;
  /** Starts a stopped node again and waits for it to be registered. */
  start(nodeId: number): Promise<void>;
  /** Waits until every replica of every partition is in sync (after a node came back). */
  waitInSync(timeoutMs?: number): Promise<void>;
  /** Stops every node (SIGKILL) and removes the cluster's files. */
  close(): Promise<void>;
}

const DEFAULT_JVM_OPTIONS = "-XX:+UseSerialGC -XX:TieredStopAtLevel=1";
const PORT_ATTEMPTS = 3;
const READY_TIMEOUT_MS = 120_000;

/** Every JVM any cluster of this process started and that has not exited: killed when the process ends. */
const liveJvms = new Set<ChildProcess>();
let exitHooksInstalled = false;

function installExitHooks(): void {
  if (exitHooksInstalled) return;
  exitHooksInstalled = true;
  const killAll = () => {
    for (const child of liveJvms) child.kill("SIGKILL");
  };
  process.once("exit", killAll);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      killAll();
      process.exit(signal === "SIGINT" ? 130 : 143);
    });
  }
}

class PortCollision extends Error {}

/** Free ports on 127.0.0.1, all held open until every one is picked so that none repeats. */
async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: count }, () => new Promise<net.Server>((resolve, reject) => {
      const server = net.createServer();
      server.once("error", reject);
      server.listen(0, "127.0.0.1", () => resolve(server));
    })),
  );
  const ports = servers.map((server) => (server.address() as net.AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  return ports;
}

/** A KRaft cluster id: 16 random bytes, base64url without padding, as `kafka-storage random-uuid` prints. */
function newClusterId(): string {
  return randomBytes(16).toString("base64url");
}

function tail(file: string, lines = 40): string {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

class Node implements KafkaNode {
  child: ChildProcess | undefined;
  readonly dataDir: string;
  readonly logFile: string;
  readonly propertiesFile: string;

  constructor(
    readonly id: number,
    readonly dir: string,
    readonly ports: Record<KafkaListener | "CONTROLLER", number | undefined>,
    readonly advertisedPorts: Record<KafkaListener, number | undefined>,
  ) {
    this.dataDir = path.join(dir, "data");
    this.logFile = path.join(dir, "server.log");
    this.propertiesFile = path.join(dir, "server.properties");
  }

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Rejects with the log's tail once the JVM has exited (a PortCollision when it lost a port). */
  assertAlive(): void {
    if (this.running) return;
    const log = tail(this.logFile);
    const message = `Kafka node ${this.id} exited (${this.child?.exitCode ?? this.child?.signalCode}); ${this.logFile}:\n${log}`;
    throw /Address already in use|BindException/.test(log) ? new PortCollision(message) : new Error(message);
  }
}

interface Layout {
  clusterId: string;
  dir: string;
  pki: TestPki;
  clientCertificate: KeyPair;
  nodes: Node[];
}

/** Writes the PKI, the nodes' server.properties and formats their storage (with the SCRAM users). */
type LayoutOptions = Required<Pick<KafkaClusterOptions, "nodes" | "mutualTls">> & Pick<KafkaClusterOptions, "serverProperties" | "proxiedListener"> & { scramUsers: Record<string, string> };

async function layOut(options: LayoutOptions): Promise<Layout> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-kafka-cluster-"));
  const pki = createPki();
  const proxied = options.proxiedListener?.advertisedPorts;
  if (proxied && proxied.length !== options.nodes) throw new Error(`proxiedListener: ${proxied.length} advertised ports for ${options.nodes} nodes`);
  const listeners: KafkaListener[] = ["PLAINTEXT", "SASL_SSL", ...(options.mutualTls ? ["SSL" as const] : []), ...(proxied ? ["PROXIED" as const] : [])];
  const names = [...listeners, "CONTROLLER"] as const;
  const ports = await freePorts(options.nodes * names.length);
  const nodes = Array.from({ length: options.nodes }, (_, index) => {
    const nodeDir = path.join(dir, `node-${index + 1}`);
    fs.mkdirSync(nodeDir);
    const nodePorts = Object.fromEntries(names.map((name, n) => [name, ports[index * names.length + n]])) as Node["ports"];
    const advertised = Object.fromEntries(listeners.map((name) => [name, name === "PROXIED" ? proxied![index] : nodePorts[name]])) as Node["advertisedPorts"];
    return new Node(index + 1, nodeDir, nodePorts, advertised);
  });
  const clientCertificate = pki.issue("client", "sluice-client");
  // Three replicas, two in sync, as the cluster allows (a one-node cluster has one of each).
  const replicas = Math.min(3, options.nodes);
  const inSync = Math.min(2, options.nodes);
  const voters = nodes.map((node) => `${node.id}@127.0.0.1:${node.ports.CONTROLLER}`).join(",");
  for (const node of nodes) {
    const certificate = pki.issue(`node-${node.id}`, "localhost", { server: true });
    // Kafka reads a PEM key store as one file: the private key (PKCS#8) followed by the certificate chain.
    const keyStore = path.join(node.dir, "keystore.pem");
    fs.writeFileSync(keyStore, fs.readFileSync(certificate.key, "utf8") + fs.readFileSync(certificate.cert, "utf8"), { mode: 0o600 });
    const properties: Record<string, string | number | boolean> = {
      "process.roles": "broker,controller",
      "node.id": node.id,
      "controller.quorum.voters": voters,
      "controller.listener.names": "CONTROLLER",
      listeners: names.map((name) => `${name}://127.0.0.1:${node.ports[name]}`).join(","),
      "advertised.listeners": listeners.map((name) => `${name}://127.0.0.1:${node.advertisedPorts[name]}`).join(","),
      "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SASL_SSL:SASL_SSL,SSL:SSL,PROXIED:PLAINTEXT,CONTROLLER:PLAINTEXT",
      "inter.broker.listener.name": "PLAINTEXT",
      "log.dirs": node.dataDir,
      "default.replication.factor": replicas,
      "min.insync.replicas": inSync,
      "offsets.topic.replication.factor": replicas,
      // Fewer than Kafka's 50: the offsets topic is created on the first group's request, and 50 × 3 replicas
      // take seconds on a small machine.
      "offsets.topic.num.partitions": 6,
      "transaction.state.log.replication.factor": replicas,
      "transaction.state.log.min.isr": inSync,
      "group.initial.rebalance.delay.ms": 0,
      "num.network.threads": 2,
      "num.io.threads": 2,
      // Kafka's cleaner takes 128 MiB of heap for its dedupe buffer by default; the heaps here are small.
      "log.cleaner.dedupe.buffer.size": 16 * 1024 * 1024,
      "ssl.keystore.type": "PEM",
      "ssl.keystore.location": keyStore,
      "ssl.truststore.type": "PEM",
      "ssl.truststore.location": pki.ca,
      "listener.name.ssl.ssl.client.auth": "required",
      "sasl.enabled.mechanisms": "SCRAM-SHA-512",
      "listener.name.sasl_ssl.sasl.enabled.mechanisms": "SCRAM-SHA-512",
      "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config": "org.apache.kafka.common.security.scram.ScramLoginModule required;",
      ...options.serverProperties,
    };
    fs.writeFileSync(node.propertiesFile, Object.entries(properties).map(([key, value]) => `${key}=${value}`).join("\n") + "\n");
  }
  const clusterId = newClusterId();
  const scram = Object.entries(options.scramUsers).flatMap(([name, password]) => ["--add-scram", `SCRAM-SHA-512=[name=${name},password=${password}]`]);
  await Promise.all(nodes.map((node) => kafkaTool("kafka-storage", ["format", "--cluster-id", clusterId, "--config", node.propertiesFile, ...scram], { timeoutMs: 120_000 })));
  return { clusterId, dir, pki, clientCertificate, nodes };
}

export async function startKafkaCluster(options: KafkaClusterOptions = {}): Promise<KafkaCluster> {
  requireReferenceJars();
  installExitHooks();
  const started = Date.now();
  const version = referenceKafkaVersion();
  const scramUsers = options.scramUsers ?? { sluice: randomBytes(12).toString("hex") };
  const heapMb = options.heapMb ?? 384;
  const settings = { nodes: options.nodes ?? 3, mutualTls: options.mutualTls ?? false, scramUsers, serverProperties: options.serverProperties, proxiedListener: options.proxiedListener };
  for (let attempt = 1; ; attempt++) {
    const layout = await layOut(settings);
    const cluster = new Cluster(version, layout, scramUsers, heapMb, options.jvmOptions ?? DEFAULT_JVM_OPTIONS);
    try {
      for (const node of layout.nodes) cluster.launch(node);
      await cluster.waitForBrokers(layout.nodes.map((node) => node.id));
      cluster.startupMs = Date.now() - started;
      console.log(`Apache Kafka ${version}: ${layout.nodes.length} KRaft nodes ready in ${(cluster.startupMs / 1000).toFixed(1)} s (${layout.dir})`);
      return cluster;
    } catch (error) {
      await cluster.close();
      if (!(error instanceof PortCollision) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

class Cluster implements KafkaCluster {
  startupMs = 0;
  readonly clusterId: string;
  readonly dir: string;
  readonly nodes: Node[];
  readonly pki: TestPki;
  readonly clientCertificate: KeyPair;

  constructor(
    readonly version: string,
    layout: Layout,
    readonly scramUsers: Record<string, string>,
    private readonly heapMb: number,
    private readonly jvmOptions: string,
  ) {
    this.clusterId = layout.clusterId;
    this.dir = layout.dir;
    this.nodes = layout.nodes;
    this.pki = layout.pki;
    this.clientCertificate = layout.clientCertificate;
  }

  bootstrap(listener: KafkaListener = "PLAINTEXT"): string {
    return this.nodes
      .map((node) => {
        const port = node.advertisedPorts[listener];
        if (port === undefined) throw new Error(`the cluster has no ${listener} listener (mutualTls adds SSL, proxiedListener PROXIED)`);
        return `127.0.0.1:${port}`;
      })
      .join(",");
  }

  kafkajs(clientId = "kafka-cluster-helper"): Kafka {
    return new Kafka({ clientId, brokers: this.bootstrap().split(","), logLevel: logLevel.NOTHING, retry: { retries: 10, initialRetryTime: 200 } });
  }

  tool(tool: Parameters<KafkaCluster["tool"]>[0], args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<string> {
    return kafkaTool(tool, ["--bootstrap-server", this.bootstrap(), ...args], options);
  }

  launch(node: Node): void {
    const log = fs.openSync(node.logFile, "a");
    try {
      node.child = spawn(path.join(REFERENCE_BIN, "kafka-server-start"), [node.propertiesFile], {
        env: {
          ...process.env,
          KAFKA_HEAP_OPTS: `-Xms64m -Xmx${this.heapMb}m`,
          KAFKA_JVM_OPTS: this.jvmOptions,
          KAFKA_LOG4J_CONFIG: path.join(REFERENCE_DIR, "config", "log4j2-server.properties"),
        },
        stdio: ["ignore", log, log],
      });
    } finally {
      fs.closeSync(log);
    }
    const child = node.child;
    liveJvms.add(child);
    child.once("exit", () => liveJvms.delete(child));
  }

  private node(nodeId: number): Node {
    const node = this.nodes.find((candidate) => candidate.id === nodeId);
    if (!node) throw new Error(`the cluster has no node ${nodeId}`);
    return node;
  }

  private async withAdmin<T>(work: (admin: Admin) => Promise<T>): Promise<T> {
    const admin = this.kafkajs().admin();
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.disconnect();
    }
  }

  /** Until a metadata request lists exactly `ids` as brokers; fails at once when a node that should run has died. */
  async waitForBrokers(ids: number[], timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const expected = [...ids].sort().join(",");
    await eventually(
      async () => {
        for (const id of ids) this.node(id).assertAlive();
        const listed = await this.withAdmin(async (admin) => (await admin.describeCluster()).brokers.map((broker) => broker.nodeId));
        return listed.sort().join(",") === expected;
      },
      { timeoutMs, intervalMs: 250, what: `brokers ${expected} registered` },
    ).catch((error: Error) => {
      // A node that died is the cause to report, not the timeout.
      for (const id of ids) this.node(id).assertAlive();
      throw error;
    });
  }

  async leaderOf(topic: string, partition: number): Promise<number> {
    return this.withAdmin(async (admin) => {
      const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
      const leader = metadata.partitions.find((candidate) => candidate.partitionId === partition)?.leader;
      if (leader === undefined || leader < 0) throw new Error(`${topic}-${partition} has no leader`);
      return leader;
    });
  }

  async kill(nodeId: number): Promise<void> {
    await this.terminate(this.node(nodeId), "SIGKILL", 30_000);
  }

  async stop(nodeId: number, timeoutMs = 60_000): Promise<void> {
    await this.terminate(this.node(nodeId), "SIGTERM", timeoutMs);
  }

  async start(nodeId: number): Promise<void> {
    const node = this.node(nodeId);
    if (node.running) throw new Error(`Kafka node ${nodeId} is running`);
    this.launch(node);
    await this.waitForBrokers(this.nodes.filter((candidate) => candidate.running).map((candidate) => candidate.id));
  }

  async waitInSync(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    await eventually(
      () =>
        this.withAdmin(async (admin) => {
          const topics = await admin.listTopics();
          const { topics: metadata } = await admin.fetchTopicMetadata({ topics });
          return metadata.every((topic) => topic.partitions.every((partition) => partition.isr.length === partition.replicas.length));
        }),
      { timeoutMs, intervalMs: 500, what: "every replica in sync" },
    );
  }

  async close(): Promise<void> {
    await Promise.all(this.nodes.map((node) => this.terminate(node, "SIGKILL", 30_000)));
    this.pki.remove();
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** Signals a node's JVM; SIGKILL after `timeoutMs` if it is still there. Resolves once it has exited. */
  private async terminate(node: Node, signal: NodeJS.Signals, timeoutMs: number): Promise<void> {
    const child = node.child;
    if (child === undefined || !node.running) return;
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    child.kill(signal);
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    await exited;
    clearTimeout(timer);
  }
}
