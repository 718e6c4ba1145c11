/**
 * Sluice as users run it (`sluice start` with the example applications) on the Apache Kafka cluster of
 * test/helpers/kafka-cluster.ts, and readers of what Kafka's own tools print.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { KafkaCluster, KafkaListener } from "../../helpers/kafka-cluster";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { EXAMPLES_PACKAGE } from "../../helpers/streams";
import { countsOf, sorted, stopProcess, trueCounts } from "../../providers/streams/wordcount-processes";

export interface SluiceOnKafka {
  process: SluiceProcess;
  url: string;
  stateDir: string;
  /** SIGTERM (a clean stop), then the state dir is removed unless `keepState`. */
  stop(options?: { keepState?: boolean }): Promise<void>;
}

/** The `streams.*` flags (and environment) that connect Sluice to `listener`: SCRAM-SHA-512 or a client certificate. */
export function connectionFlags(cluster: KafkaCluster, listener: KafkaListener): { flags: string[]; env: NodeJS.ProcessEnv } {
  const flags = [`--streams.bootstrap.servers=${cluster.bootstrap(listener)}`];
  if (listener === "SASL_SSL") {
    const [username, password] = Object.entries(cluster.scramUsers)[0];
    flags.push(
      "--streams.security.protocol=SASL_SSL",
      `--streams.ssl.ca.location=${cluster.pki.ca}`,
      "--streams.sasl.mechanism=SCRAM-SHA-512",
      `--streams.sasl.username=${username}`,
      "--streams.sasl.password=${env:KAFKA_PASSWORD}",
    );
    return { flags, env: { KAFKA_PASSWORD: password } };
  }
  if (listener === "SSL") {
    flags.push(
      "--streams.security.protocol=SSL",
      `--streams.ssl.ca.location=${cluster.pki.ca}`,
      `--streams.ssl.certificate.location=${cluster.clientCertificate.cert}`,
      `--streams.ssl.key.location=${cluster.clientCertificate.key}`,
    );
  }
  return { flags, env: {} };
}

/** `sluice start` with the examples on the cluster through `listener`; resolves once it serves HTTP. */
export async function startSluiceOn(cluster: KafkaCluster, listener: KafkaListener, options: { stateDir?: string; flags?: string[]; logLevel?: string } = {}): Promise<SluiceOnKafka> {
  const stateDir = options.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "sluice-on-kafka-"));
  const connection = connectionFlags(cluster, listener);
  const process = runSluice(
    [
      "start",
      "--server.port=0",
      `--log.level=${options.logLevel ?? "info"}`,
      `--plugins.packages=${EXAMPLES_PACKAGE}`,
      `--streams.state.dir=${stateDir}`,
      ...connection.flags,
      ...(options.flags ?? []),
    ],
    { env: connection.env },
  );
  const stop = async ({ keepState = false } = {}) => {
    await stopProcess(process, "SIGTERM");
    if (!keepState) fs.rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    return { process, url: await process.url(60_000), stateDir, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** POST /api/v1/streams: another instance of a topology Sluice knows, e.g. a wordcount on topics of its own. */
export async function deploy(url: string, topology: string, config: Record<string, string>): Promise<void> {
  const answer = await http(`${url}/api/v1/streams`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ topology, version: "latest", config }),
  });
  if (answer.status !== 201) throw new Error(`deploying ${config["application.id"]}: ${answer.status} ${answer.text}`);
}

/** The records of an interactive query over every instance (remote access allowed), or undefined unless SUCCESS. */
export async function queryRecords(url: string, application: string, store: string, type: string, query: Record<string, unknown>): Promise<any[] | undefined> {
  const answer = await http(`${url}/api/v1/applications/${application}/stores/${store}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ type, set_options: { remote_access_allowed: true }, query }),
  });
  if (answer.status !== 200 || answer.json().status !== "SUCCESS") return undefined;
  return answer.json().result.success.flatMap((entry: { records: unknown[] }) => entry.records);
}

export async function stateOf(url: string, application: string): Promise<string> {
  return (await http(`${url}/api/v1/streams/${application}`)).json().state.state;
}

/** Waits until `application`'s `counts` store holds the true counts of `lines`, as the instance at `url` answers. */
export async function untilCounted(url: string, application: string, lines: readonly string[], timeoutMs = 60_000): Promise<void> {
  const want = JSON.stringify(sorted(trueCounts([...lines])));
  let last: Record<string, number> | undefined;
  await eventually(
    async () => {
      last = await countsOf(url, application);
      return last !== undefined && JSON.stringify(sorted(last)) === want;
    },
    { timeoutMs, intervalMs: 250, what: `${application}'s exact counts` },
  ).catch((error: Error) => {
    throw new Error(`${error.message}\nwanted ${want}\nanswered ${JSON.stringify(last && sorted(last))}`);
  });
}

/** The state changes a Sluice process logged for `application` (its "application state changed" lines). */
export function stateChanges(process: SluiceProcess, application: string): string[] {
  return process.logs().filter((line) => line.msg === "application state changed" && line.applicationId === application).map((line) => String(line.to));
}

export interface TopicDescription {
  partitions: number;
  replicationFactor: number;
  configs: Record<string, string>;
}

/** `kafka-topics --describe`'s topic lines: `Topic: t  TopicId: …  PartitionCount: 3  ReplicationFactor: 3  Configs: a=b,c=d`. */
export function parseTopicDescriptions(stdout: string): Map<string, TopicDescription> {
  const topics = new Map<string, TopicDescription>();
  for (const line of stdout.split("\n")) {
    const match = /^Topic: (\S+)\tTopicId: \S+\tPartitionCount: (\d+)\tReplicationFactor: (\d+)\tConfigs: ?(.*)$/.exec(line);
    if (!match) continue;
    // Values may hold commas (cleanup.policy=compact,delete): a new entry starts at the next `name=`.
    const configs = Object.fromEntries(
      match[4]
        .split(/,(?=[a-z][a-z0-9.]*=)/)
        .filter((entry) => entry.length > 0)
        .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
    );
    topics.set(match[1], { partitions: Number(match[2]), replicationFactor: Number(match[3]), configs });
  }
  return topics;
}

export interface GroupOffsetRow {
  topic: string;
  partition: number;
  /** -1 where the tool prints "-" (nothing committed). */
  currentOffset: number;
  logEndOffset: number;
  lag: number;
}

/** `kafka-consumer-groups --describe --group g`'s table (GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG …). */
export function parseGroupOffsets(stdout: string, group: string): GroupOffsetRow[] {
  const number = (value: string) => (value === "-" ? -1 : Number(value));
  return stdout
    .split("\n")
    .map((line) => line.trim().split(/\s+/))
    .filter((columns) => columns[0] === group && /^\d+$/.test(columns[2] ?? ""))
    .map(([, topic, partition, current, end, lag]) => ({ topic, partition: Number(partition), currentOffset: number(current), logEndOffset: number(end), lag: number(lag) }));
}

/** The last value of each key in `kafka-console-consumer` output printed with `print.key=true` (tab-separated). */
export function lastValues(stdout: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of stdout.split("\n")) {
    const tab = line.indexOf("\t");
    if (tab > 0) values[line.slice(0, tab)] = line.slice(tab + 1);
  }
  return values;
}
