/**
 * The stores of a stream-stream join and a versioned store survive a SIGKILL and a move (#34 points 5 and 9): a
 * `sluice start` child runs join-stores-app while clicks, views and orders keep arriving, is killed with SIGKILL and
 * started again on its state dir; then, stopped, it is replaced by an instance with an empty state dir that restores
 * every store from its changelog. Each time, once caught up, every count of joined pairs and every total of orders
 * priced as of their time is what a clean run computes: no window lost or doubled, no version lost.
 *
 * A task with several stores (a join's) restored on another instance right after a SIGKILL is not exact: see
 * commit-marker.ts.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, type Message, type Producer } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { brokerPort, runSluice, type SluiceProcess } from "../../helpers/sluice-process";
import { http } from "../../helpers/sluice";
import { JOIN_WINDOW_MS } from "./join-stores-app";
import { stopProcess } from "./wordcount-processes";

const test = suite("stream-stream join and versioned stores after SIGKILL");

/**
 * Event time starts an hour ago, on a whole minute. Older times would fall behind the retention of the topics and of
 * the windowed changelogs, whose segments the broker deletes by their records' timestamps, as Kafka does; a fixed
 * date drifts there as the calendar moves on.
 */
const T0 = Math.floor((Date.now() - 3_600_000) / 60_000) * 60_000;
const USERS = Array.from({ length: 8 }, (_, i) => `user${i}`);
const PRODUCTS = Array.from({ length: 6 }, (_, i) => `product${i}`);
/** Each product's price changes every PRICE_STEP_MS, for PRICE_STEPS steps. */
const PRICE_STEP_MS = 1_000;
const PRICE_STEPS = 30;

const dirs: string[] = [];
const children: SluiceProcess[] = [];
let producer: Producer;
let bootstrap: string;

const tempDir = (prefix: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

test.before(async () => {
  const broker = runSluice(["broker", "--broker.port=0", `--broker.data.dir=${tempDir("sluice-broker-")}`]);
  children.push(broker);
  bootstrap = `127.0.0.1:${await brokerPort(broker)}`;
  const kafka = new Kafka({ clientId: "join-stores-crash", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: ["clicks", "views", "prices", "orders"].map((topic) => ({ topic, numPartitions: 3 })), waitForLeaders: true });
  await admin.disconnect();
  producer = kafka.producer();
  await producer.connect();
});

test.after(async () => {
  await producer?.disconnect();
  for (const child of [...children].reverse()) await stopProcess(child, "SIGTERM");
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A package whose descriptor names the compiled join-stores-app, for `plugins.packages`. */
function appPackage(): string {
  const dir = tempDir("sluice-join-stores-app-");
  fs.mkdirSync(path.join(dir, "META-INF", "services"), { recursive: true });
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "join-stores-app", version: "1.0.0", private: true }));
  fs.writeFileSync(path.join(dir, "META-INF", "services", "sluice.streams.TopologyProvider"), `${path.join(__dirname, "join-stores-app")}#JoinStoresProvider\n`);
  return dir;
}

async function startInstance(packageDir: string, stateDir: string): Promise<string> {
  const process = runSluice([
    "start",
    "--server.port=0",
    `--plugins.packages=${packageDir}`,
    `--streams.bootstrap.servers=${bootstrap}`,
    `--streams.state.dir=${stateDir}`,
    "--streams.session.timeout.ms=3000",
  ]);
  children.push(process);
  return process.url(30_000);
}

/** Every entry of a key_value store as the instance answers `all`, or undefined while it cannot answer it all. */
async function storeEntries(url: string, store: string): Promise<Record<string, number> | undefined> {
  const response = await http(`${url}/api/v1/applications/join-stores/stores/${store}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", query: { all: {} } }),
  });
  if (response.status !== 200) return undefined;
  const answer = response.json() as { status: string; result: { success: { records: { key: string; value: number }[] }[] } };
  if (answer.status !== "SUCCESS") return undefined;
  const entries: Record<string, number> = {};
  for (const entry of answer.result.success) for (const record of entry.records) entries[record.key] = record.value;
  return sorted(entries);
}

const sorted = (entries: Record<string, number>) => Object.fromEntries(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : 1)));

/** What was produced, to compute what a clean run gives. */
const clicks: { user: string; at: number }[] = [];
const views: { user: string; at: number }[] = [];
const orders: { product: string; at: number }[] = [];
const priceOf = (product: string, step: number) => (Number(product.slice(7)) + 1) * 100 + step;

/** Each round: a click and a view of every user (a view 0–1.5 s from its click, either side), an order of every product. */
async function produceRound(round: number): Promise<void> {
  const at = (offset: number) => ({ timestamp: String(T0 + offset) });
  const clickMessages: Message[] = [];
  const viewMessages: Message[] = [];
  const orderMessages: Message[] = [];
  USERS.forEach((user, i) => {
    const click = round * 700 + i * 37;
    const view = click + (((round * 7 + i * 13) % 31) - 15) * 100;
    clicks.push({ user, at: click });
    views.push({ user, at: view });
    clickMessages.push({ key: user, value: `c${round}`, ...at(click) });
    viewMessages.push({ key: user, value: `v${round}`, ...at(view) });
  });
  PRODUCTS.forEach((product, i) => {
    const order = ((round * 11 + i * 5) % (PRICE_STEPS * 10)) * (PRICE_STEP_MS / 10) - 500;
    orders.push({ product, at: order });
    orderMessages.push({ key: product, value: `o${round}`, ...at(order) });
  });
  await producer.sendBatch({ acks: -1, topicMessages: [
    { topic: "clicks", messages: clickMessages },
    { topic: "views", messages: viewMessages },
    { topic: "orders", messages: orderMessages },
  ] });
}

function expectedPairCounts(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const user of USERS) {
    const theirViews = views.filter((view) => view.user === user);
    for (const click of clicks) {
      if (click.user !== user) continue;
      for (const view of theirViews) if (Math.abs(view.at - click.at) <= JOIN_WINDOW_MS) counts[user] = (counts[user] ?? 0) + 1;
    }
  }
  return sorted(counts);
}

function expectedOrderTotals(): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const { product, at } of orders) {
    const step = Math.floor(at / PRICE_STEP_MS);
    totals[product] = (totals[product] ?? 0) + (step < 0 ? 0 : priceOf(product, Math.min(step, PRICE_STEPS - 1)));
  }
  return sorted(totals);
}

test("after kill -9 and a restart, then on an instance restoring from the changelogs, the results are a clean run's", async () => {
  const packageDir = appPackage();
  const stateDir = tempDir("sluice-state-");
  const first = await startInstance(packageDir, stateDir);
  // Every price version first (out of order within each product), so that each order's lookup has one answer.
  const prices: Message[] = PRODUCTS.flatMap((product) =>
    Array.from({ length: PRICE_STEPS }, (_, step) => (step * 7) % PRICE_STEPS).map((step) => ({ key: product, value: String(priceOf(product, step)), timestamp: String(T0 + step * PRICE_STEP_MS) })),
  );
  await producer.send({ topic: "prices", acks: -1, messages: prices });
  await eventually(async () => {
    const response = await http(`${first}/api/v1/applications/join-stores/stores/price-history`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ type: "versioned_key_value", set_options: { remote_access_allowed: true }, query: { get: { key: PRODUCTS.at(-1) } } }),
    });
    const records = response.status === 200 ? (response.json() as { result: { success: { records: { valid_from: number }[] }[] } }).result.success.flatMap((entry) => entry.records) : [];
    return records[0]?.valid_from === T0 + (PRICE_STEPS - 1) * PRICE_STEP_MS;
  }, { timeoutMs: 30_000, what: "every price version to be stored" });

  let round = 0;
  for (; round < 20; round++) await produceRound(round);
  await untilCleanRunResults(first, "the first instance");
  // Rounds keep coming while the instance joins: it dies with input fetched, processed or half-committed.
  let producing = true;
  const stream = (async () => {
    while (producing) await produceRound(round++);
  })();
  await eventually(async () => ((await storeEntries(first, "pair-counts")) ?? {})[USERS[0]] > 60, { timeoutMs: 30_000, what: "joining to go on" });
  const killed = children.at(-1)!;
  await stopProcess(killed, "SIGKILL");
  assert.is(killed.child.signalCode, "SIGKILL");
  const roundsAtKill = round;
  while (round < roundsAtKill + 20) await new Promise((resolve) => setTimeout(resolve, 10));
  producing = false;
  await stream;

  const second = await startInstance(packageDir, stateDir);
  await untilCleanRunResults(second, "the restarted instance");

  // Moved to an instance with no local state (after a clean stop: every commit complete), each store is restored
  // from its changelog alone: the join's window stores, and the versioned store with every version of each key.
  await stopProcess(children.at(-1)!, "SIGTERM");
  for (const end = round + 10; round < end; round++) await produceRound(round);
  const third = await startInstance(packageDir, tempDir("sluice-state-"));
  await untilCleanRunResults(third, "an instance restoring from the changelogs");
});

/** Waits until the instance at `url` answers the pair counts and order totals a clean run gives for all produced. */
async function untilCleanRunResults(url: string, who: string): Promise<void> {
  const want = { pairs: expectedPairCounts(), totals: expectedOrderTotals() };
  let seen: unknown;
  await eventually(
    async () => {
      seen = { pairs: await storeEntries(url, "pair-counts"), totals: await storeEntries(url, "order-totals") };
      return JSON.stringify(seen) === JSON.stringify(want);
    },
    { timeoutMs: 90_000, intervalMs: 300, what: `${who} to reach a clean run's counts and totals` },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; last seen ${JSON.stringify(seen)}; want ${JSON.stringify(want)}`);
  });
}

test.run();
