/**
 * wordcount run as users run it: a standalone `sluice broker` child (file store) and `sluice start` children
 * with the example applications pointed at it, each with its own state dir; counts read back over HTTP.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { EXAMPLES_PACKAGE } from "../../helpers/streams";

export interface WordcountCluster {
  bootstrap: string;
  kafka: Kafka;
  /** Connected; disconnected by close(). */
  producer: Producer;
  /**
   * Starts `sluice start` running the examples on `stateDir` (a new temp dir by default), reaching the broker at
   * `bootstrap` (default: the broker itself), with `flags` added (a flag given replaces the default of its key, such
   * as `--plugins.packages`) and `env` set; resolves once it serves HTTP.
   */
  start(stateDir?: string, bootstrap?: string, flags?: string[], env?: NodeJS.ProcessEnv): Promise<WordcountInstance>;
  /** The log lines of the broker running now. */
  brokerLogs(): Record<string, unknown>[];
  /** SIGKILLs the broker. */
  killBroker(): Promise<void>;
  /** Starts the broker again on its port and data dir; resolves once it listens. */
  restartBroker(): Promise<void>;
  /** Stops every child (instances first, then the broker) and removes their folders. */
  close(): Promise<void>;
}

export interface WordcountInstance {
  process: SluiceProcess;
  url: string;
  /** host:port, as other instances list it. */
  server: string;
  stateDir: string;
}

export async function stopProcess(process: SluiceProcess, signal: NodeJS.Signals): Promise<void> {
  if (process.child.exitCode === null && process.child.signalCode === null) process.child.kill(signal);
  await process.exited;
}

/** A broker child on an ephemeral port, with `brokerFlags` added, and `words` created with `partitions` partitions. */
export async function startWordcountCluster(partitions: number, brokerFlags: string[] = []): Promise<WordcountCluster> {
  const dirs: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const children: SluiceProcess[] = [];
  const brokerDir = tempDir("sluice-broker-");
  const startBroker = async (port: number) => {
    const broker = runSluice(["broker", `--broker.port=${port}`, `--broker.data.dir=${brokerDir}`, ...brokerFlags]);
    children.unshift(broker);
    return eventually(
      () => {
        if (broker.child.exitCode !== null) throw new Error(`the broker exited: ${broker.stderr()}`);
        return broker.logs().find((line) => line.msg === "broker listening")?.port as number | undefined;
      },
      { timeoutMs: 15_000, what: "the broker to listen" },
    );
  };
  let producer: Producer | undefined;
  const close = async () => {
    await producer?.disconnect();
    for (const child of [...children].reverse()) await stopProcess(child, "SIGTERM");
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await startBroker(0);
    const bootstrap = `127.0.0.1:${port}`;
    const kafka = new Kafka({ clientId: "wordcount-processes-test", brokers: [bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: "words", numPartitions: partitions }], waitForLeaders: true });
    await admin.disconnect();
    producer = kafka.producer();
    await producer.connect();
    return {
      bootstrap,
      kafka,
      producer,
      start: async (stateDir = tempDir("sluice-state-"), via = bootstrap, flags = [], env = {}) => {
        const defaults = [
          "--server.port=0",
          `--plugins.packages=${EXAMPLES_PACKAGE}`,
          `--streams.bootstrap.servers=${via}`,
          "--streams.auto.create.topics=true",
          `--streams.state.dir=${stateDir}`,
          // A SIGKILLed member leaves the group when its session ends; the rest of the test waits for that.
          "--streams.session.timeout.ms=3000",
        ];
        const overridden = (flag: string) => flags.some((given) => given.split("=")[0] === flag.split("=")[0]);
        const process = runSluice(["start", ...defaults.filter((flag) => !overridden(flag)), ...flags], { env });
        children.push(process);
        const url = await process.url(30_000);
        return { process, url, server: url.replace("http://", ""), stateDir };
      },
      brokerLogs: () => children[0].logs(),
      killBroker: () => stopProcess(children[0], "SIGKILL"),
      restartBroker: async () => void (await startBroker(port)),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

const VOCABULARY = Array.from({ length: 40 }, (_, i) => `word${i}`);

/**
 * Writes lines of five words of a 40-word vocabulary to `words` (to `partition` only when given), and keeps them for
 * the true counts.
 */
export interface LineFeeder {
  /** Every line written (acknowledged) so far. */
  readonly lines: string[];
  /** Writes `count` more lines with acks=all. */
  produce(count: number): Promise<void>;
}

export function lineFeeder(producer: Producer, partition?: number): LineFeeder {
  const lines: string[] = [];
  const lineOf = (i: number) => Array.from({ length: 5 }, (_, j) => VOCABULARY[(i * 7 + j * 13) % VOCABULARY.length]).join(" ");
  return {
    lines,
    produce: async (count) => {
      const batch = Array.from({ length: count }, (_, i) => lineOf(lines.length + i));
      await producer.send({ topic: "words", messages: batch.map((value) => ({ value, partition })), acks: -1 });
      lines.push(...batch);
    },
  };
}

/** Every count of the `counts` store as one instance answers `all` (other instances' partitions included). */
export async function countsOf(url: string, application = "wordcount"): Promise<Record<string, number> | undefined> {
  const response = await http(`${url}/api/v1/applications/${application}/stores/counts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", set_options: { remote_access_allowed: true }, query: { all: {} } }),
  });
  if (response.status !== 200) return undefined;
  const answer = response.json() as { status: string; result: { success: { records: { key: string; value: number }[] }[] } };
  if (answer.status !== "SUCCESS") return undefined;
  const counts: Record<string, number> = {};
  for (const entry of answer.result.success) for (const record of entry.records) counts[record.key] = record.value;
  return counts;
}

/** The true counts of `lines`, split as wordcount splits them. */
export function trueCounts(lines: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of lines) {
    for (const word of line.toLowerCase().split(/[^\p{L}\p{N}']+/u)) if (word.length > 0) counts[word] = (counts[word] ?? 0) + 1;
  }
  return counts;
}

/** Keys in sorted order, so that two count maps compare equal regardless of insertion order. */
export const sorted = (counts: Record<string, number>): Record<string, number> =>
  Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** Waits until `application`'s counts, as the instance at `url` answers them, are the true counts of `lines`. */
export async function untilExactCounts(url: string, application: string, lines: string[]): Promise<void> {
  const want = JSON.stringify(sorted(trueCounts(lines)));
  let last: Record<string, number> | undefined;
  await eventually(async () => {
    last = await countsOf(url, application);
    return last !== undefined && JSON.stringify(sorted(last)) === want;
  }, { timeoutMs: 30_000, what: `${application}'s exact counts` }).catch((error: Error) => {
    throw new Error(`${error.message}\nwanted ${want}\nanswered ${JSON.stringify(last && sorted(last))}`);
  });
}

/** The ids of the instance's active tasks of `application`; undefined unless it is RUNNING. */
export async function activeTasks(url: string, application = "wordcount"): Promise<string[] | undefined> {
  const response = await http(`${url}/api/v1/streams/${application}/status`);
  if (response.status !== 200) return undefined;
  const status = response.json() as { state: string; threads: { active_tasks: { task_id: string }[] }[] };
  return status.state === "RUNNING" ? status.threads.flatMap((thread) => thread.active_tasks.map((task) => task.task_id)).sort() : undefined;
}

/** The instance's active and standby task ids, also while it rebalances; undefined unless `running` or it is RUNNING. */
export async function tasksOf(url: string, running = true): Promise<{ active: string[]; standby: string[] } | undefined> {
  const response = await http(`${url}/api/v1/streams/wordcount/status`);
  if (response.status !== 200) return undefined;
  const status = response.json() as { state: string; threads: { active_tasks: { task_id: string }[]; standby_tasks: { task_id: string }[] }[] };
  if (running && status.state !== "RUNNING") return undefined;
  const ids = (pick: (thread: (typeof status.threads)[number]) => { task_id: string }[]) => status.threads.flatMap((thread) => pick(thread).map((task) => task.task_id)).sort();
  return { active: ids((thread) => thread.active_tasks), standby: ids((thread) => thread.standby_tasks) };
}

/** The counts the instance at `url` holds itself (no remote access), with whether every entry came from a local active task. */
export async function localCounts(url: string): Promise<{ status: string; counts: Record<string, number>; allLocalActive: boolean }> {
  const response = await http(`${url}/api/v1/applications/wordcount/stores/counts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", query: { all: {} } }),
  });
  if (response.status !== 200) throw new Error(`the counts query answered ${response.status}: ${response.text}`);
  const answer = response.json() as { status: string; result?: { success?: { remote: boolean; standby?: boolean; records: { key: string; value: number }[] }[] } };
  const entries = answer.result?.success ?? [];
  const counts: Record<string, number> = {};
  for (const entry of entries) for (const record of entry.records) counts[record.key] = record.value;
  return { status: answer.status, counts, allLocalActive: entries.every((entry) => !entry.remote && entry.standby !== true) };
}

/** wordcount's tasks on a `words` of two partitions, as activeTasks lists them. */
export const ALL_TASKS = "0_0,0_1,1_0,1_1";

/**
 * Two members of wordcount on a `words` of two partitions (tasks 0_0, 0_1, 1_0, 1_1), whose lines are all written to
 * partition 0: waits until the four tasks are split between them, and answers them as [the one that does not split
 * the lines (0_0) but counts (1_0 or 1_1), the other]. The first one's late work after a stop is then only counting,
 * which its changelog tells it was taken over; a late split would write its words to the repartition topic again.
 */
export async function membersBySplit(members: readonly WordcountInstance[]): Promise<[WordcountInstance, WordcountInstance]> {
  const counting = await eventually(async () => {
    const tasks = await Promise.all(members.map((member) => activeTasks(member.url)));
    if (tasks.some((list) => list === undefined || list.length === 0) || tasks.flatMap((list) => list!).sort().join() !== ALL_TASKS) return false;
    return tasks.findIndex((list) => !list!.includes("0_0") && list!.some((task) => task.startsWith("1_"))) + 1;
  }, { timeoutMs: 30_000, what: "the tasks split between the two members, one counting without splitting" });
  return counting === 1 ? [members[0], members[1]] : [members[1], members[0]];
}

/**
 * The zombie scenario's frame: lines keep coming while `zombie` is stopped (SIGSTOP, once `stopWhen` holds if given)
 * and `whileStopped` runs (it continues the member when it is ready to); whatever happens, the member is continued and
 * the feed stops. Then 50 more lines, until both members count every line exactly and the continued one runs again.
 * Answers what `whileStopped` answered.
 */
export async function stoppedWhileFeeding<T>(feeder: LineFeeder, zombie: WordcountInstance, other: WordcountInstance, whileStopped: () => Promise<T>, stopWhen?: () => Promise<boolean>): Promise<T> {
  let feeding = true;
  const flow = (async () => {
    while (feeding) await feeder.produce(20);
  })();
  let result: T;
  try {
    if (stopWhen !== undefined) await eventually(stopWhen, { timeoutMs: 30_000, what: "the member to stop at its chosen moment" });
    zombie.process.child.kill("SIGSTOP");
    result = await whileStopped();
  } finally {
    zombie.process.child.kill("SIGCONT");
    feeding = false;
    await flow;
  }
  await feeder.produce(50);
  await untilExactCounts(other.url, "wordcount", feeder.lines);
  await untilExactCounts(zombie.url, "wordcount", feeder.lines);
  // It rejoins the group after its lost transaction, so it may still be REBALANCING when the counts are exact.
  await eventually(async () => (await activeTasks(zombie.url)) !== undefined, { timeoutMs: 30_000, what: "the continued member to run again" }).catch(async (error: Error) => {
    const status = await http(`${zombie.url}/api/v1/streams/wordcount/status`);
    const trouble = zombie.process.logs().filter((line) => line.level === "error" || line.level === "warn").slice(-6);
    throw new Error(`${error.message}; its status: ${status.status} ${status.text.slice(0, 300)}; its last warnings and errors: ${JSON.stringify(trouble)}`);
  });
  return result;
}

/** One partition of a store as `/api/v1/streams/{id}/stores` lists it, active or standby. */
export interface StorePartition {
  partition: number;
  changelog_position: number;
  log_end_offset: number;
  lag: number;
  standby: boolean;
  restoring: boolean;
  restore: { records_restored: number };
}

/** The partitions of wordcount's `counts` store on the instance at `url`, active and standby. */
export async function countsPartitions(url: string): Promise<StorePartition[]> {
  const response = await http(`${url}/api/v1/streams/wordcount/stores`);
  if (response.status !== 200) throw new Error(`GET /stores answered ${response.status}: ${response.text}`);
  const { stores } = response.json() as { stores: { name: string; partitions: StorePartition[] }[] };
  return stores.find((store) => store.name === "counts")?.partitions ?? [];
}
