/**
 * Produce and consume throughput of the embedded broker (in its own worker thread, file storage in a
 * temporary directory) with kcat and with kafkajs, for 100-byte and 1 KiB values, and the process RSS at the
 * start and end of each run and its peak during it (memory must stay flat however much streams through).
 * Beside them, in turns with kcat's 1 KiB runs, the disk's own sequential write rate: a file of the same size
 * written with fs.write in 1 MiB chunks, then fdatasync'ed; the summary gives the medians and kcat's ratio to it.
 *
 *   node dist/bench/broker/broker-throughput.js [--mb=256] [--kafkajs-mb=64] [--values=100,1024] [--storage=file|memory] [--rounds=3]
 *
 * --kafkajs-mb=0 skips kafkajs; --mb=5120 --values=1024 streams 5 GB through the broker with kcat.
 */
import { mkdtemp, open, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kafka, logLevel } from "kafkajs";
import { startBrokerInWorker } from "../../providers/broker";
import { kcatRows, mbPerSecond, measure, type Row } from "./kcat-throughput";

function argument(name: string, fallback: string): string {
  const prefix = `--${name}=`;
  return process.argv.find((arg) => arg.startsWith(prefix))?.slice(prefix.length) ?? fallback;
}

/** MB/s of writing `megabytes` to a new file with fs.write of 1 MiB chunks, fdatasync'ed at the end (the broker does not sync: without it the figure is the page cache's), and of the writes alone. */
async function diskWriteRates(dir: string, megabytes: number): Promise<{ synced: number; unsynced: number }> {
  const path = join(dir, "disk-rate");
  const chunk = Buffer.alloc(1024 * 1024, 120);
  const file = await open(path, "w");
  const start = process.hrtime.bigint();
  try {
    for (let written = 0; written < megabytes; written++) await file.write(chunk, 0, chunk.length);
    const written = Number(process.hrtime.bigint() - start) / 1e9;
    await file.datasync();
    const synced = Number(process.hrtime.bigint() - start) / 1e9;
    return { synced: megabytes / synced, unsynced: megabytes / written };
  } finally {
    await file.close();
    await rm(path);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function kafkajsRows(bootstrap: string, valueBytes: number, megabytes: number): Promise<Row[]> {
  const records = Math.ceil((megabytes * 1024 * 1024) / valueBytes / 1000) * 1000;
  const topic = `kafkajs-${valueBytes}`;
  const kafka = new Kafka({ clientId: "bench", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  const value = Buffer.alloc(valueBytes, 120);
  const batch = Array.from({ length: 1000 }, () => ({ value }));
  const produced = await measure(async () => {
    // Several requests in flight, as a busy application has.
    const inFlight = new Set<Promise<unknown>>();
    for (let sent = 0; sent < records; sent += batch.length) {
      const request = producer.send({ topic, acks: 1, messages: batch });
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
      if (inFlight.size >= 8) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  });
  await producer.disconnect();

  const consumer = kafka.consumer({ groupId: `bench-${valueBytes}`, maxBytes: 50 * 1024 * 1024 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  const consumed = await measure(
    () =>
      new Promise<void>((resolve, reject) => {
        let count = 0;
        consumer
          .run({
            eachBatch: async ({ batch: fetched }) => {
              count += fetched.messages.length;
              if (count >= records) resolve();
            },
          })
          .catch(reject);
      }),
  );
  await consumer.disconnect();
  return [
    { client: "kafkajs", direction: "produce", valueBytes, records, ...produced },
    { client: "kafkajs", direction: "consume", valueBytes, records, ...consumed },
  ];
}

function printTable(rows: Row[]): void {
  const header = ["client", "direction", "value", "records", "seconds", "MB/s", "records/s", "CPU s", "RSS MB start/peak/end"];
  const lines = rows.map((row) => [
    row.client,
    row.direction,
    `${row.valueBytes} B`,
    String(row.records),
    row.seconds.toFixed(2),
    mbPerSecond(row).toFixed(1),
    Math.round(row.records / row.seconds).toString(),
    row.cpuSeconds.toFixed(2),
    [row.startRssMb, row.peakRssMb, row.endRssMb].map((mb) => mb.toFixed(0)).join("/"),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i].length)));
  for (const line of [header, ...lines]) process.stdout.write(`${line.map((cell, i) => cell.padStart(widths[i])).join("  ")}\n`);
}

async function main(): Promise<void> {
  const megabytes = Number(argument("mb", "256"));
  const kafkajsMegabytes = Number(argument("kafkajs-mb", "64"));
  const valueSizes = argument("values", "100,1024").split(",").map(Number);
  const storage = argument("storage", "file") as "file" | "memory";
  const rounds = Number(argument("rounds", "3"));
  const dir = await mkdtemp(join(tmpdir(), "sluice-broker-bench-"));
  const broker = await startBrokerInWorker({ port: 0, storage, dataDir: join(dir, "data"), retentionMs: null });
  const bootstrap = `${broker.host}:${broker.port}`;
  try {
    const rows: Row[] = [];
    // The disk and kcat's 1 KiB runs in turns, so that each round compares figures taken side by side.
    const disk: { synced: number; unsynced: number }[] = [];
    const kibRows: Row[] = [];
    for (let round = 1; round <= rounds; round++) {
      disk.push(await diskWriteRates(dir, megabytes));
      kibRows.push(...(await kcatRows(bootstrap, dir, 1024, megabytes, `kcat-1024-${round}`)));
    }
    rows.push(...kibRows);
    for (const valueBytes of valueSizes.filter((size) => size !== 1024)) rows.push(...(await kcatRows(bootstrap, dir, valueBytes, megabytes, `kcat-${valueBytes}`)));
    if (kafkajsMegabytes > 0) {
      for (const valueBytes of valueSizes) rows.push(...(await kafkajsRows(bootstrap, valueBytes, kafkajsMegabytes)));
    }
    process.stdout.write(`broker: ${storage} storage, worker thread; CPU and RSS of this process (broker + kafkajs clients)\n`);
    printTable(rows);
    const diskRate = median(disk.map((rate) => rate.synced));
    const produceRate = median(kibRows.filter((row) => row.direction === "produce").map(mbPerSecond));
    const consumeRate = median(kibRows.filter((row) => row.direction === "consume").map(mbPerSecond));
    const of = (rate: number) => `${((rate / diskRate) * 100).toFixed(1)} % of the disk`;
    process.stdout.write(`medians of ${rounds} rounds of ${megabytes} MB, in turns:\n`);
    process.stdout.write(`disk sequential write (fs.write 1 MiB chunks + fdatasync): median ${diskRate.toFixed(1)} MB/s (writes alone, page cache: ${median(disk.map((rate) => rate.unsynced)).toFixed(1)} MB/s)\n`);
    process.stdout.write(`kcat 1 KiB produce: median ${produceRate.toFixed(1)} MB/s = ${of(produceRate)}\n`);
    process.stdout.write(`kcat 1 KiB consume: median ${consumeRate.toFixed(1)} MB/s = ${of(consumeRate)}\n`);
  } finally {
    await broker.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
