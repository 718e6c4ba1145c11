/**
 * A broker's produce and consume throughput as kcat (librdkafka) sees it: a file of values produced to a topic, then
 * consumed from its beginning, each timed, with the RSS of this process (where an embedded broker's worker runs).
 */
import { spawn } from "node:child_process";
import { createWriteStream } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";

export interface Row {
  client: string;
  direction: "produce" | "consume";
  valueBytes: number;
  records: number;
  seconds: number;
  /** CPU time of this process (the broker's worker, and the kafkajs clients in their runs). */
  cpuSeconds: number;
  startRssMb: number;
  peakRssMb: number;
  endRssMb: number;
}

type Measured = Pick<Row, "seconds" | "cpuSeconds" | "startRssMb" | "peakRssMb" | "endRssMb">;

const megabytesOf = (bytes: number) => bytes / 1024 / 1024;

/** Samples RSS while `work` runs; returns its duration and the RSS at its start, peak and end. */
export async function measure(work: () => Promise<void>): Promise<Measured> {
  const startRss = process.memoryUsage.rss();
  let peak = startRss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 50);
  const startCpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const cpu = process.cpuUsage(startCpu);
  const endRss = process.memoryUsage.rss();
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, startRssMb: megabytesOf(startRss), peakRssMb: megabytesOf(Math.max(peak, endRss)), endRssMb: megabytesOf(endRss) };
}

function kcat(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn("kcat", args, { stdio: ["ignore", "ignore", "inherit"] });
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`kcat ${args.join(" ")} exited with ${code}`))));
  });
}

async function writeValues(path: string, records: number, valueBytes: number): Promise<void> {
  const out = createWriteStream(path);
  const line = `${"x".repeat(valueBytes)}\n`;
  const chunk = line.repeat(1000);
  for (let written = 0; written < records; written += 1000) {
    if (!out.write(chunk)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

export const mbPerSecond = (row: Row) => (row.records * row.valueBytes) / 1024 / 1024 / row.seconds;

/** kcat producing `megabytes` of `valueBytes` values to `topic` from a file, then consuming them all. */
export async function kcatRows(bootstrap: string, dir: string, valueBytes: number, megabytes: number, topic: string): Promise<Row[]> {
  const records = Math.ceil((megabytes * 1024 * 1024) / valueBytes / 1000) * 1000;
  const file = join(dir, `${topic}.values`);
  await writeValues(file, records, valueBytes);
  const produced = await measure(() => kcat(["-b", bootstrap, "-P", "-t", topic, "-l", file]));
  // -c rather than -e: kcat learns of the end only from an empty fetch, which waits out fetch.wait.max.ms.
  const consumed = await measure(() =>
    kcat(["-b", bootstrap, "-C", "-t", topic, "-o", "beginning", "-c", String(records), "-q", "-f", "%o\n"]),
  );
  await rm(file);
  return [
    { client: "kcat", direction: "produce", valueBytes, records, ...produced },
    { client: "kcat", direction: "consume", valueBytes, records, ...consumed },
  ];
}

