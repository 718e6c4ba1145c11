/**
 * Server-sent events figures (prints, never asserts): delivery latency from the topology's send to the
 * client's receipt (p50/p99/max), Sluice's CPU and RSS, and subscribers that missed records, for
 *   (a) 1,000 subscribers on one stream at 20 records/s, and
 *   (b) 10 subscribers at 5,000 records/s.
 * Sluice (with the embedded broker, in memory) runs in this process; subscribers and the producer run in
 * child processes, so the CPU and RSS figures are Sluice's.
 * Usage: node dist/bench/sse/sse-bench.js [seconds=15] [a|b|ab]
 */
import { fork, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../kernel/contracts/kafka-bootstrap";
import type { ApplicationRegistry } from "../../kernel/contracts/streams/runtime";
import { STREAMS_RUNTIME_TOKEN } from "../../kernel/contracts/streams/runtime";
import { Kernel } from "../../kernel/kernel";
import type { FleetReport } from "./subscriber-fleet";
import { APPLICATION_ID, EVENT_TYPE, writeTicksPackage } from "./ticks-provider";

interface Scenario {
  name: string;
  subscribers: number;
  rate: number;
}

const SCENARIOS: Record<string, Scenario> = {
  a: { name: "(a) 1,000 subscribers at 20 records/s", subscribers: 1000, rate: 20 },
  b: { name: "(b) 10 subscribers at 5,000 records/s", subscribers: 10, rate: 5000 },
};

const seconds = Number(process.argv[2] ?? 15);
const chosen = [...(process.argv[3] ?? "ab")].map((key) => SCENARIOS[key]);
const mib = (bytes: number) => bytes / 1024 / 1024;

/** The next IPC message of `child` that has `key`; rejects on `{ error }` or exit. */
function nextMessage<T>(child: ChildProcess, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: Record<string, unknown>) => {
      if (message.error) return done(() => reject(new Error(String(message.error))));
      if (key in message) done(() => resolve(message[key] as T));
    };
    const onExit = (code: number | null) => done(() => reject(new Error(`child exited with ${code} before '${key}'`)));
    const done = (settle: () => void) => {
      child.off("message", onMessage);
      child.off("exit", onExit);
      settle();
    };
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
}

async function startSluice(root: string, stateDir: string): Promise<Kernel> {
  const kernel = new Kernel({
    env: {},
    root,
    overrides: { "server.port": "0", "log.level": "silent", "broker.port": "0", "broker.storage": "memory", "streams.state.dir": stateDir },
  });
  await kernel.start();
  const application = kernel.components.resolve<ApplicationRegistry>(STREAMS_RUNTIME_TOKEN).application(APPLICATION_ID)!;
  const deadline = Date.now() + 30_000;
  while (application.state !== "RUNNING") {
    if (Date.now() > deadline) throw new Error(`${APPLICATION_ID} is ${application.state} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return kernel;
}

async function run(scenario: Scenario): Promise<void> {
  const root = writeTicksPackage();
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-sse-bench-state-"));
  const children: ChildProcess[] = [];
  let kernel: Kernel | undefined;
  try {
    kernel = await startSluice(root, stateDir);
    const rssIdle = process.memoryUsage.rss();
    const url = `http://${kernel.serverAddress()}/api/v1/streams/${APPLICATION_ID}/subscribe/${EVENT_TYPE}`;
    const fleet = fork(path.join(__dirname, "subscriber-fleet.js"), [url, String(scenario.subscribers)]);
    children.push(fleet);
    await nextMessage(fleet, "ready");

    const rssBefore = process.memoryUsage.rss();
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 100);
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();

    const brokers = kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers().join(",");
    const feeder = fork(path.join(__dirname, "rate-feeder.js"), [brokers, String(scenario.rate), String(seconds)]);
    children.push(feeder);
    const sent = await nextMessage<number>(feeder, "sent");

    // Wait for the tail of the stream to arrive (at most 10 s).
    const expected = sent * scenario.subscribers;
    let report: FleetReport;
    const drainDeadline = Date.now() + 10_000;
    do {
      fleet.send("report");
      report = await nextMessage<FleetReport>(fleet, "report");
      if (report.received >= expected) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } while (Date.now() < drainDeadline);

    const elapsedSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    const cpu = process.cpuUsage(cpuBefore);
    clearInterval(sampler);
    const rssAfter = process.memoryUsage.rss();
    const missing = report.perSubscriber.map((received) => sent - received).filter((lost) => lost > 0);

    console.log(scenario.name);
    console.log(`  records sent            ${sent} in ${seconds} s (${(sent / seconds).toFixed(0)}/s), deliveries ${report.received} of ${expected}`);
    console.log(`  delivery latency        p50 ${report.p50.toFixed(2)} ms   p99 ${report.p99.toFixed(2)} ms   max ${report.max.toFixed(2)} ms`);
    console.log(`  Sluice CPU              ${(((cpu.user + cpu.system) / 1e6 / elapsedSeconds) * 100).toFixed(1)} % of one core (user ${(cpu.user / 1e6).toFixed(2)} s, system ${(cpu.system / 1e6).toFixed(2)} s over ${elapsedSeconds.toFixed(1)} s)`);
    console.log(`  subscribers' process    ${((report.cpuSeconds / elapsedSeconds) * 100).toFixed(1)} % of one core (parsing every event of every subscription)`);
    console.log(`  Sluice RSS              idle ${mib(rssIdle).toFixed(1)} MiB, subscribed ${mib(rssBefore).toFixed(1)} MiB, peak ${mib(rssPeak).toFixed(1)} MiB, end ${mib(rssAfter).toFixed(1)} MiB, growth ${mib(rssPeak - rssIdle).toFixed(1)} MiB`);
    console.log(`  subscribers missing     ${missing.length} of ${scenario.subscribers}${missing.length ? ` (most lost by one: ${Math.max(...missing)})` : ""}`);
    fleet.send("exit");
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill();
    await kernel?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  for (const scenario of chosen) await run(scenario);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
