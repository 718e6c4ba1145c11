/**
 * A foreign-key table-table join on the embedded broker, run as Sluice runs it (issue #34's bench): `orders` orders
 * (JSON {customer, amount}, keys o0…) join `customers` customers (JSON {name, region}, keys c0…) by the order's
 * customer, into a materialized table written to a topic. The customers are written first, then the orders; the run
 * lasts from the application's start until it has processed every input record and every record of the join's two
 * internal topics (a subscription and a response per order), so start-up counts.
 * Prints orders/s, processed records/s and RSS (at start, by tenths of the run, at the end). Prints, never asserts.
 * Usage: node dist/bench/runtime/fk-join-bench.js [orders=1000000] [customers=100000] [storage=file|memory]
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Kafka, logLevel } from "kafkajs";
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { startBrokerInWorker } from "../../providers/broker";
import { StreamsRuntime } from "../../providers/streams";
import { produceInput } from "./bench-input";
import { rate, startup, timeRuntime } from "./runtime-timing";

const orders = Number(process.argv[2] ?? 1_000_000);
const customers = Number(process.argv[3] ?? 100_000);
const storage = process.argv[4] === "memory" ? "memory" : "file";
const PARTITIONS = 4;
const APPLICATION_ID = "bench-fk-join";
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

function enrichOrders(builder: StreamsBuilder): void {
  const orderTable = builder.table<string, { customer: string; amount: number }>("orders", { keySerde: "string", valueSerde: "json" });
  const customerTable = builder.table<string, { name: string; region: string }>("customers", { keySerde: "string", valueSerde: "json" });
  orderTable
    .join(
      customerTable,
      (order) => order.customer,
      (order, customer) => ({ amount: order.amount, name: customer.name, region: customer.region }),
      { name: "orders-customers" },
      { storeName: "enriched-orders", keySerde: "string", valueSerde: "json" },
    )
    .toStream()
    .to("enriched-orders", { keySerde: "string", valueSerde: "json" });
}

async function main(): Promise<void> {
  const rssStart = process.memoryUsage().rss;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-broker-"));
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-"));
  const broker = await startBrokerInWorker({ port: 0, storage, dataDir, initialRebalanceDelayMs: 0 });
  try {
    const bootstrap = [`${broker.host}:${broker.port}`];
    const kafka = new Kafka({ clientId: "bench", brokers: bootstrap, logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ topics: ["orders", "customers", "enriched-orders"].map((topic) => ({ topic, numPartitions: PARTITIONS })) });
    await admin.disconnect();
    const producer = kafka.producer();
    await producer.connect();
    const customer = (i: number) => JSON.stringify({ name: `customer ${i}`, region: `region ${i % 20}` });
    const order = (i: number) => JSON.stringify({ customer: `c${(i * 7919) % customers}`, amount: 1 + (i % 500) });
    await produceInput(producer, "customers", customers, PARTITIONS, customer, (i) => `c${i}`);
    await produceInput(producer, "orders", orders, PARTITIONS, order, (i) => `o${i}`);
    await producer.disconnect();

    const runtime = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir } });
    runtime.addProvider({ name: APPLICATION_ID, version: "1.0.0", config: { "application.id": APPLICATION_ID }, topology: enrichOrders });
    // Each order is processed three times (the orders table, its subscription, the customer's answer); each customer once.
    const processed = customers + 3 * orders;
    const rssSteps: number[] = [];
    const timing = await timeRuntime(runtime, APPLICATION_ID, processed, () => rssSteps.push(process.memoryUsage().rss));
    await runtime.close();
    console.log(`broker: worker thread, ${storage} store, ${PARTITIONS} partitions per topic; ${orders} orders, ${customers} customers`);
    console.log(`foreign-key join: ${Math.round(rate(orders, timing))} orders/s, ${Math.round(rate(processed, timing))} processed records/s (${timing.totalSeconds.toFixed(1)} s, ${startup(timing)})`);
    console.log(`RSS: start ${mib(rssStart)}; by tenths ${rssSteps.map(mib).join(", ")}; end ${mib(process.memoryUsage().rss)}`);
  } finally {
    await broker.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
