/**
 * A chaos run: a standalone broker (file store) and three `sluice start` processes running the examples, fed at a
 * steady rate and queried by dashboards and SSE subscribers while faults are injected at random (seeded): instances
 * SIGKILLed and restarted, the broker SIGKILLed and restarted on its data, graceful stop/restart over REST, and a
 * proxy between one instance and the broker that stalls and resets its connections. Then everything settles and
 * every result is checked against the acknowledged input (chaos-check.ts).
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Admin } from "kafkajs";
import { ChaosFeeder, PAGEVIEWS_TOPIC, VOCABULARY, WORDS_TOPIC } from "./chaos-feeder";
import { checkResults, type CheckFigures } from "./chaos-check";
import { closeHttpClients, requestJson } from "./http-json";
import { KafkaProxy } from "../../test/helpers/kafka-proxy";
import { QueryLoad, type QueryFigures } from "./query-load";
import { SeededRandom } from "./seeded-random";
import { SluiceChild } from "./sluice-child";
import { SseWatch, type SseFigures } from "./sse-watch";

export interface ChaosOptions {
  seed: number;
  /** How long faults are injected. */
  durationMs: number;
  instances: number;
  /** Time between two instance kills: [min, max] ms. */
  instanceKillEveryMs: [number, number];
  /** Down time of a killed instance: [min, max] ms. */
  instanceDownMs: [number, number];
  brokerKills: number;
  brokerDownMs: [number, number];
  /** Time between two graceful stop/restart over REST, and between two proxy faults: [min, max] ms. */
  restEveryMs: [number, number];
  proxyEveryMs: [number, number];
  /** Where logs and data go; removed at the end unless `keepDir`. */
  dir?: string;
  keepDir?: boolean;
  /** The applications' processing.guarantee (at_least_once by default). */
  guarantee?: "at_least_once" | "exactly_once_v2";
  /** streams.num.standby.replicas of the instances (0 by default); with standbys, keyed queries allow stale reads. */
  standbyReplicas?: number;
  /**
   * Static membership (KIP-345): each instance joins with its own stable `streams.group.instance.id`, kept across its
   * restarts, and a session timeout longer than a restart, so a killed or stopped instance's tasks wait for it
   * instead of moving away and back.
   */
  staticMembership?: boolean;
  /** log.level of the Sluice processes; their logs go to files in `dir`. */
  logLevel?: string;
  /** Progress lines (stderr by default). */
  progress?: (line: string) => void;
}

export const DEFAULT_OPTIONS: ChaosOptions = {
  seed: 1,
  durationMs: 10 * 60_000,
  instances: 3,
  instanceKillEveryMs: [20_000, 60_000],
  instanceDownMs: [0, 10_000],
  brokerKills: 2,
  brokerDownMs: [1_000, 10_000],
  restEveryMs: [45_000, 90_000],
  proxyEveryMs: [30_000, 60_000],
};

const APPLICATIONS = ["wordcount", "pageviews"];
/** How long a restarted instance may take to start and join again, on top of its down time, before its static session ends. */
const RESTART_MARGIN_MS = 20_000;
const SETTLE_TIMEOUT_MS = 180_000;

export interface FaultRecovery {
  atMs: number;
  kind: string;
  /** The down time the harness chose for a killed process before its restart (instance and broker kills). */
  downMs?: number;
  /** Until every application of every instance was RUNNING again; undefined if the run ended first. */
  recoveryMs?: number;
  /**
   * For a killed process, from its restarted process serving again to every application RUNNING: the recovery
   * without the down time the harness chose and the process's own start.
   */
  afterRestartMs?: number;
  /**
   * From the fault's end to every application RUNNING: for a kill, its process serving again (afterRestartMs); for a
   * REST stop, the restart request; for a proxy stall or reset, the end of the stall or of the refused connections.
   * The recovery without the fault's length, which the harness chose.
   */
  afterFaultMs?: number;
}

export interface ChaosReport {
  seed: number;
  guarantee: "at_least_once" | "exactly_once_v2";
  standbyReplicas: number;
  /** The instances' session timeout under static membership; undefined with dynamic members. */
  staticSessionTimeoutMs?: number;
  fedRecords: number;
  ackedRecords: number;
  retriedSends: number;
  faults: Record<string, number>;
  recoveryMs: number[];
  /** Each fault, in order: when (ms into the faults), its kind, how long the harness kept its process down, and its recovery. */
  recoveries: FaultRecovery[];
  queries: QueryFigures;
  sse: SseFigures[];
  rss: { name: string; warmBytes: number; endBytes: number }[];
  check: CheckFigures;
  settleMs: number;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => resolve(true)).once("error", () => resolve(false));
    socket.once("close", () => socket.destroy());
    socket.once("connect", () => socket.end());
  });
}

async function answers(url: string): Promise<boolean> {
  return requestJson(url, { timeoutMs: 1_000 }).then(
    (answer) => answer.status === 200,
    () => false,
  );
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = (random: SeededRandom, [min, max]: [number, number]) => random.int(min, max);

async function healthOf(url: string): Promise<Record<string, string> | undefined> {
  try {
    const answer = await requestJson(`${url}/health`, { timeoutMs: 2_000 });
    return (answer.body as { applications?: Record<string, string> }).applications;
  } catch {
    return undefined;
  }
}

/**
 * Records not yet processed and committed by `application`'s group: log end offsets minus the group's committed
 * offsets over its input and repartition topics, asked of the broker (an instance's own offsets view lists only
 * the partitions it has fetched from since it started).
 */
async function uncommitted(admin: Admin, application: string, inputs: string[]): Promise<number> {
  const topics = [...inputs, ...(await admin.listTopics()).filter((topic) => topic.startsWith(`${application}-`) && topic.endsWith("-repartition"))];
  const committed = await admin.fetchOffsets({ groupId: application, topics });
  let behind = 0;
  for (const { topic, partitions } of committed) {
    const ends = new Map((await admin.fetchTopicOffsets(topic)).map((end) => [end.partition, Number(end.high)]));
    for (const { partition, offset } of partitions) behind += Math.max(0, (ends.get(partition) ?? 0) - Math.max(0, Number(offset)));
  }
  return behind;
}

export async function runChaos(options: ChaosOptions): Promise<ChaosReport> {
  const progress = options.progress ?? ((line: string) => process.stderr.write(`${line}\n`));
  const random = new SeededRandom(options.seed);
  const dir = options.dir ?? fs.mkdtempSync(path.join(os.tmpdir(), "sluice-chaos-"));
  fs.mkdirSync(dir, { recursive: true });
  const faults: Record<string, number> = { "instance kill": 0, "broker kill": 0, "rest stop/restart": 0, "proxy stall": 0, "proxy reset": 0 };
  const recoveryMs: number[] = [];
  const recoveries: FaultRecovery[] = [];
  /** Faults injected since every application was last seen RUNNING everywhere. */
  const unrecovered: { at: number; recovery: FaultRecovery; killed?: SluiceChild; endedAt?: number }[] = [];
  const brokerPort = await freePort();
  const bootstrap = `127.0.0.1:${brokerPort}`;
  const broker = new SluiceChild("broker", ["broker", `--broker.port=${brokerPort}`, `--broker.data.dir=${path.join(dir, "broker")}`, "--broker.storage=file"], path.join(dir, "broker.log"), () => accepts(brokerPort));
  const children: SluiceChild[] = [broker];
  let proxy: KafkaProxy | undefined;
  const stopAll = async () => {
    closeHttpClients();
    for (const child of [...children].reverse()) await child.kill("SIGKILL");
    await proxy?.close();
    if (!options.keepDir) fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await broker.start();
    const kafka = new Kafka({ clientId: "chaos-setup", brokers: [bootstrap], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: [WORDS_TOPIC, PAGEVIEWS_TOPIC].map((topic) => ({ topic, numPartitions: 4 })), waitForLeaders: true });
    await admin.disconnect();
    proxy = await KafkaProxy.start("127.0.0.1", brokerPort);

    const staticSessionTimeoutMs = options.staticMembership ? options.instanceDownMs[1] + RESTART_MARGIN_MS : undefined;
    const membership = (i: number) =>
      staticSessionTimeoutMs === undefined ? [] : [`--streams.group.instance.id=chaos-sluice-${i}`, `--streams.session.timeout.ms=${staticSessionTimeoutMs}`];
    const slots: { child: SluiceChild; url: string }[] = [];
    for (let i = 0; i < options.instances; i++) {
      const port = await freePort();
      const viaProxy = i === 0 ? `127.0.0.1:${proxy.port}` : bootstrap;
      const child = new SluiceChild(
        `sluice-${i}`,
        [
          "start",
          `--server.port=${port}`,
          `--plugins.packages=dist/providers/examples`,
          `--streams.bootstrap.servers=${viaProxy}`,
          "--streams.auto.create.topics=true",
          `--streams.state.dir=${path.join(dir, `state-${i}`)}`,
          "--streams.num.partitions=4",
          `--streams.processing.guarantee=${options.guarantee ?? "at_least_once"}`,
          `--streams.num.standby.replicas=${options.standbyReplicas ?? 0}`,
          ...membership(i),
          `--log.level=${options.logLevel ?? "warn"}`,
        ],
        path.join(dir, `sluice-${i}.log`),
        () => answers(`http://127.0.0.1:${port}/api/v1`),
      );
      children.push(child);
      slots.push({ child, url: `http://127.0.0.1:${port}` });
    }
    await Promise.all(slots.map((slot) => slot.child.start()));
    const liveUrls = () => slots.filter((slot) => slot.child.alive).map((slot) => slot.url);

    const allRunning = async () => {
      if (!broker.alive) return false;
      for (const slot of slots) {
        if (!slot.child.alive) return false;
        const health = await healthOf(slot.url);
        if (!health || APPLICATIONS.some((app) => health[app] !== "RUNNING")) return false;
      }
      return true;
    };
    const waitAllRunning = async (timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (!(await allRunning())) {
        if (Date.now() > deadline) throw new Error(`not every application was RUNNING within ${timeoutMs} ms (logs in ${dir})`);
        await sleep(250);
      }
    };
    await waitAllRunning(120_000);
    progress(`chaos: ${options.instances} instances RUNNING on broker ${bootstrap}; instance 0 through proxy :${proxy.port}; seed ${options.seed}`);

    const feeder = new ChaosFeeder(bootstrap, options.seed, 8, 4);
    await feeder.start(100);
    const queries = new QueryLoad(liveUrls, VOCABULARY, new SeededRandom(options.seed ^ 0xa11), (options.standbyReplicas ?? 0) > 0);
    queries.start(50);
    const watches = [0, 1].map((i) => new SseWatch(() => (slots[i].child.alive ? slots[i].url : undefined), "/api/v1/streams/wordcount/subscribe/word-counts"));
    for (const watch of watches) watch.start();

    let monitoring = true;
    const monitor = (async () => {
      while (monitoring) {
        if (unrecovered.length > 0 && (await allRunning())) {
          const now = Date.now();
          for (const { at, recovery, killed, endedAt } of unrecovered.splice(0)) {
            recovery.recoveryMs = now - at;
            // Ready before this check saw it RUNNING; a readiness poll not yet returned counts as ready now.
            if (killed) recovery.afterRestartMs = killed.readyAt > at ? now - killed.readyAt : 0;
            recovery.afterFaultMs = recovery.afterRestartMs ?? Math.max(0, now - (endedAt ?? at));
            recoveryMs.push(now - at);
          }
        }
        await sleep(500);
      }
    })();

    const warmUpMs = Math.min(20_000, options.durationMs / 4);
    await sleep(warmUpMs);
    const warmRss = children.map((child) => child.rssBytes() ?? 0);
    const start = Date.now();
    const end = start + options.durationMs;
    const at = (offset: number) => start + offset;
    const brokerKillTimes = Array.from({ length: options.brokerKills }, (_, i) => at(((i + 1) * options.durationMs) / (options.brokerKills + 1)));
    let nextInstanceKill = at(between(random, options.instanceKillEveryMs));
    let nextRest = at(between(random, options.restEveryMs));
    let nextProxy = at(between(random, options.proxyEveryMs));
    const restarts: Promise<void>[] = [];
    /** Records a fault; what it returns takes the time the fault ended when that is not a killed process's restart. */
    const fault = (kind: string, downMs?: number, killed?: SluiceChild) => {
      faults[kind]++;
      const recovery: FaultRecovery = { atMs: Date.now() - start, kind, downMs };
      recoveries.push(recovery);
      const entry: (typeof unrecovered)[number] = { at: Date.now(), recovery, killed };
      unrecovered.push(entry);
      progress(`chaos: +${Math.round((Date.now() - start) / 1000)}s ${kind}`);
      return { ended: (at: number) => (entry.endedAt = at) };
    };
    const restartLater = (child: SluiceChild, downMs: number) => {
      restarts.push(
        sleep(downMs).then(async () => {
          for (let attempt = 1; ; attempt++) {
            try {
              return await child.start();
            } catch (error) {
              if (attempt >= 5) throw error;
              progress(`chaos: ${child.name} restart failed (${(error as Error).message}); again`);
            }
          }
        }),
      );
    };
    while (Date.now() < end) {
      const now = Date.now();
      if (brokerKillTimes.length > 0 && now >= brokerKillTimes[0] && broker.alive) {
        brokerKillTimes.shift();
        await broker.kill("SIGKILL");
        const downMs = between(random, options.brokerDownMs);
        fault("broker kill", downMs, broker);
        restartLater(broker, downMs);
      }
      if (now >= nextInstanceKill) {
        nextInstanceKill = now + between(random, options.instanceKillEveryMs);
        // An instance still restarting is left alone: killing it then would measure its start, not a failover.
        const victim = random.pick(slots.filter((slot) => slot.child.serving));
        if (victim) {
          await victim.child.kill("SIGKILL");
          const downMs = between(random, options.instanceDownMs);
          fault("instance kill", downMs, victim.child);
          restartLater(victim.child, downMs);
        }
      }
      if (now >= nextRest) {
        nextRest = now + between(random, options.restEveryMs);
        const slot = random.pick(slots.filter((s) => s.child.serving));
        const application = random.pick(APPLICATIONS);
        if (slot) {
          const restFault = fault("rest stop/restart");
          const stopped = await requestJson(`${slot.url}/api/v1/streams/${application}/stop`, { method: "POST", body: {}, timeoutMs: 35_000 }).catch(() => undefined);
          await sleep(random.int(500, 3_000));
          restFault.ended(Date.now());
          if (stopped) await requestJson(`${slot.url}/api/v1/streams/${application}/restart`, { method: "POST", timeoutMs: 35_000 }).catch(() => undefined);
        }
      }
      if (now >= nextProxy) {
        nextProxy = now + between(random, options.proxyEveryMs);
        const stall = random.next() < 0.5;
        const lengthMs = random.int(2_000, 5_000);
        if (stall) proxy.stall(lengthMs);
        else proxy.reset(lengthMs);
        fault(stall ? "proxy stall" : "proxy reset").ended(Date.now() + lengthMs);
      }
      await sleep(200);
    }
    await Promise.all(restarts);
    progress("chaos: faults over; settling");

    const settleStart = Date.now();
    const feederFigures = await feeder.drain();
    await waitAllRunning(SETTLE_TIMEOUT_MS);
    const settleDeadline = settleStart + SETTLE_TIMEOUT_MS;
    const checkAdmin = kafka.admin();
    await checkAdmin.connect();
    for (;;) {
      const behind = [await uncommitted(checkAdmin, "wordcount", [WORDS_TOPIC]), await uncommitted(checkAdmin, "pageviews", [PAGEVIEWS_TOPIC])];
      if (behind.every((n) => n === 0) && (await allRunning())) break;
      if (Date.now() > settleDeadline) throw new Error(`the applications did not catch up within ${SETTLE_TIMEOUT_MS} ms (uncommitted ${behind.join(", ")}; logs in ${dir})`);
      await sleep(500);
    }
    await checkAdmin.disconnect();
    const settleMs = Date.now() - settleStart;
    monitoring = false;
    await monitor;
    const queryFigures = await queries.stop();
    const sse = watches.map((watch) => watch.stop());
    const rss = children.map((child, i) => ({ name: child.name, warmBytes: warmRss[i], endBytes: child.rssBytes() ?? 0 }));
    progress(`chaos: settled in ${settleMs} ms; checking`);
    const check = await checkResults(bootstrap, feeder, slots.map((slot) => slot.url));
    return {
      seed: options.seed,
      guarantee: options.guarantee ?? "at_least_once",
      standbyReplicas: options.standbyReplicas ?? 0,
      staticSessionTimeoutMs,
      fedRecords: feederFigures.generated,
      ackedRecords: feederFigures.acknowledged,
      retriedSends: feederFigures.retriedSends,
      faults,
      recoveryMs,
      recoveries,
      queries: queryFigures,
      sse,
      rss,
      check,
      settleMs,
    };
  } finally {
    await stopAll();
  }
}
