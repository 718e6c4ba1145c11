/**
 * The table side survives SIGKILL (issue #34): a `sluice start` child running an application with a foreign-key
 * join and a table re-grouping (test/fixtures/orders-app) is SIGKILLed while orders and customers keep changing —
 * orders move between customers and are deleted, customers move between regions and are deleted and come back — and
 * is started again on the same state dir. Once it has caught up, its tables are exactly what the final inputs make:
 * the left join of the final orders with the final customers, and each region's total of those.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Producer } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { FIXTURES, http } from "../../helpers/sluice";
import { runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { stopProcess } from "./wordcount-processes";

const test = suite("a foreign-key join and a table groupBy survive SIGKILL mid-stream");

interface Order {
  customer: string;
  amount: number;
}
interface Customer {
  name: string;
  region: string;
}

const children: SluiceProcess[] = [];
const dirs: string[] = [];
let producer: Producer | undefined;

test.after(async () => {
  await producer?.disconnect();
  for (const child of [...children].reverse()) await stopProcess(child, "SIGTERM");
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

async function startBroker(): Promise<string> {
  const broker = runSluice(["broker", "--broker.port=0", `--broker.data.dir=${tempDir("sluice-broker-")}`]);
  children.push(broker);
  const port = await eventually(
    () => {
      if (broker.child.exitCode !== null) throw new Error(`the broker exited: ${broker.stderr()}`);
      return broker.logs().find((line) => line.msg === "broker listening")?.port as number | undefined;
    },
    { timeoutMs: 15_000, what: "the broker to listen" },
  );
  return `127.0.0.1:${port}`;
}

async function startOrders(bootstrap: string, stateDir: string): Promise<{ process: SluiceProcess; url: string }> {
  const process = runSluice([
    "start",
    "--server.port=0",
    `--plugins.packages=${path.join(FIXTURES, "orders-app")}`,
    `--streams.bootstrap.servers=${bootstrap}`,
    "--streams.auto.create.topics=true",
    `--streams.state.dir=${stateDir}`,
    "--streams.session.timeout.ms=3000",
  ]);
  children.push(process);
  return { process, url: await process.url(30_000) };
}

/** Every row of a store, as the instance answers `all` (timestamped stores answer key_value queries too). */
async function rowsOf(url: string, store: string): Promise<Record<string, unknown> | undefined> {
  const response = await http(`${url}/api/v1/applications/orders/stores/${store}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", query: { all: {} } }),
  });
  if (response.status !== 200) return undefined;
  const answer = response.json() as { status: string; result: { success: { records: { key: string; value: unknown }[] }[] } };
  if (answer.status !== "SUCCESS") return undefined;
  const rows: Record<string, unknown> = {};
  for (const entry of answer.result.success) for (const record of entry.records) rows[record.key] = record.value;
  return sortedKeys(rows);
}

const sortedKeys = <V>(rows: Record<string, V>): Record<string, V> => Object.fromEntries(Object.entries(rows).sort(([a], [b]) => (a < b ? -1 : 1)));

/** Keeps the true orders and customers while it writes their changes: what the tables must end as. */
class Feed {
  readonly orders = new Map<string, Order>();
  readonly customers = new Map<string, Customer>();
  private seed = 7;

  constructor(private readonly producer: Producer) {}

  async customersFirst(count: number): Promise<void> {
    const rows = Array.from({ length: count }, (_, i) => [`c${i}`, { name: `name${i}`, region: `r${i % 5}` }] as const);
    await this.send("customers", rows);
  }

  /** `count` random changes: mostly orders written or moved, some deleted, customers moving region, deleted, back. */
  async changes(count: number): Promise<void> {
    const orders: [string, Order | null][] = [];
    const customers: [string, Customer | null][] = [];
    for (let i = 0; i < count; i++) {
      const roll = this.next(100);
      if (roll < 70) orders.push([`o${this.next(400)}`, { customer: `c${this.next(36)}`, amount: 1 + this.next(50) }]);
      else if (roll < 80) orders.push([`o${this.next(400)}`, null]);
      else if (roll < 95) customers.push([`c${this.next(36)}`, { name: `name${i}`, region: `r${this.next(5)}` }]);
      else customers.push([`c${this.next(36)}`, null]);
    }
    await this.send("orders", orders);
    await this.send("customers", customers);
  }

  /** The left join of the final orders with the final customers, and each region's total of it (non-zero ones). */
  expected(): { enriched: Record<string, unknown>; totals: Record<string, number> } {
    const enriched: Record<string, unknown> = {};
    const totals: Record<string, number> = {};
    for (const [id, order] of this.orders) {
      const region = this.customers.get(order.customer)?.region ?? "none";
      enriched[id] = { customer: order.customer, amount: order.amount, region };
      totals[region] = (totals[region] ?? 0) + order.amount;
    }
    return { enriched: sortedKeys(enriched), totals: sortedKeys(totals) };
  }

  private async send<V>(topic: "orders" | "customers", rows: readonly (readonly [string, V | null])[]): Promise<void> {
    if (rows.length === 0) return;
    await this.producer.send({ topic, acks: -1, messages: rows.map(([key, value]) => ({ key, value: value === null ? null : JSON.stringify(value) })) });
    const table = (topic === "orders" ? this.orders : this.customers) as Map<string, V>;
    for (const [key, value] of rows) {
      if (value === null) table.delete(key);
      else table.set(key, value);
    }
  }

  /** A deterministic sequence (its high bits: an LCG's low bits repeat soon), so that a failure can be replayed. */
  private next(bound: number): number {
    this.seed = (this.seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return Math.floor((this.seed / 2_147_483_648) * bound);
  }
}

const nonZero = (totals: Record<string, unknown> | undefined) => Object.fromEntries(Object.entries(totals ?? {}).filter(([, total]) => total !== 0));

test("after kill -9 and a restart on the same state, the join and the totals are those of the final inputs", async () => {
  const bootstrap = await startBroker();
  const kafka = new Kafka({ clientId: "orders-crash-test", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  // Not co-partitioned: a foreign-key join needs no co-partitioning.
  await admin.createTopics({ topics: [{ topic: "orders", numPartitions: 4 }, { topic: "customers", numPartitions: 3 }], waitForLeaders: true });
  await admin.disconnect();
  producer = kafka.producer();
  await producer.connect();
  const feed = new Feed(producer);
  await feed.customersFirst(30);

  const stateDir = tempDir("sluice-state-");
  const first = await startOrders(bootstrap, stateDir);
  await feed.changes(300);
  const joinedRows = async () => JSON.stringify((await rowsOf(first.url, "enriched")) ?? {});
  await eventually(async () => Object.keys(JSON.parse(await joinedRows())).length > 100, { timeoutMs: 60_000, what: "orders joined" });
  // Changes keep coming while the instance joins: it dies with changes fetched, half processed or half committed.
  let feeding = true;
  const stream = (async () => {
    while (feeding) await feed.changes(50);
  })();
  const before = await joinedRows();
  await eventually(async () => (await joinedRows()) !== before, { timeoutMs: 30_000, what: "the join to go on while changes arrive" });
  await stopProcess(first.process, "SIGKILL");
  assert.is(first.process.child.signalCode, "SIGKILL");
  feeding = false;
  await stream;
  await feed.changes(300);

  const second = await startOrders(bootstrap, stateDir);
  const { enriched, totals } = feed.expected();
  const want = JSON.stringify({ enriched, totals });
  let last: unknown;
  await eventually(
    async () => {
      last = { enriched: await rowsOf(second.url, "enriched"), totals: nonZero(await rowsOf(second.url, "region-totals")) };
      return JSON.stringify(last) === want;
    },
    { timeoutMs: 90_000, intervalMs: 500, what: "the restarted instance's tables to be those of the final inputs" },
  ).catch((error: Error) => {
    assert.equal(last, { enriched, totals }, error.message);
  });
});

test.run();
