/**
 * Global tables on a broker (issue #34 point 4): one instance holds every partition of the table's topic, caught up
 * before its tasks process anything, so every stream record finds its row whatever the partitions; the table follows
 * its topic while the application runs; the store answers REST queries on the instance, with no routing; and a
 * restart reads the topic again (the store keeps nothing locally).
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { query, recordsOf } from "../../plugins/applications-api/query-client";
import { globalTestBed, type GlobalTestBed } from "./global-test-bed";

const test = suite("global tables on the embedded broker");

const CUSTOMERS = "gt-customers";
const ORDERS = "gt-orders";
const OUTPUT = "gt-enriched";
const STORE = "customers-global";

let bed: GlobalTestBed;

function topology(builder: StreamsBuilder): void {
  const customers = builder.globalTable<string, string>(CUSTOMERS, {}, { storeName: STORE });
  builder
    .stream<string, string>(ORDERS)
    .leftJoin(customers, (_order, customer) => customer, (customer, name, order) => `${order}:${name ?? "?"}@${customer}`)
    .to(OUTPUT);
}

const provider: TopologyProvider = { name: "global-orders", version: "1", config: { "application.id": "global-orders" }, topology };

test.before(async () => {
  bed = await globalTestBed({ customers: CUSTOMERS, orders: ORDERS, output: OUTPUT }, provider);
});

test.after(async () => {
  await bed?.close();
});

test("every order finds its customer on both partitions of the table, the table follows its topic, and queries answer here", async () => {
  const customers = Array.from({ length: 8 }, (_, i) => ({ key: `c${i}`, value: `name${i}` }));
  const sent = await bed.producer.send({ topic: CUSTOMERS, messages: customers });
  assert.equal(new Set(sent.map((entry) => entry.partition)).size, 2, "the customers are on both partitions");
  // Orders already waiting when the application starts: the tasks may process them only once the table is caught up.
  const orders = Array.from({ length: 12 }, (_, i) => ({ key: `o${i}`, value: `c${i % 8}` }));
  await bed.producer.send({ topic: ORDERS, messages: orders });
  const sluice = await bed.startInstance();
  try {
    const joined = await bed.readOutput((values) => values.length >= orders.length);
    assert.equal(joined.sort(), orders.map(({ key, value }) => `${key}:name${value.slice(1)}@${value}`).sort());

    // A customer added while running reaches the store (the query proves it), then an order joins it.
    await bed.producer.send({ topic: CUSTOMERS, messages: [{ key: "c9", value: "late" }] });
    const answer = await eventually(
      async () => {
        const found = await query(sluice.url, "global-orders", STORE, { type: "timestamped_key_value", query: { get: { key: "c9" } } });
        return recordsOf(found).length === 1 && found;
      },
      { what: "c9 in the global store", timeoutMs: 20_000 },
    );
    assert.is(answer.status, "SUCCESS");
    assert.equal(answer.result.success.map((entry) => entry.remote), [false], "answered by this instance");
    assert.is(recordsOf(answer)[0].value, "late");
    assert.type(recordsOf(answer)[0].timestamp, "number");
    await bed.producer.send({ topic: ORDERS, messages: [{ key: "o99", value: "c9" }] });
    await bed.readOutput((values) => values.includes("o99:late@c9"));

    const described = (await http(`${sluice.url}/api/v1/applications/global-orders`)).json() as { instances: { stores: string[] }[] };
    assert.equal(described.instances.map((instance) => instance.stores), [[STORE]], "the instance hosts the global store");
    const all = await query(sluice.url, "global-orders", STORE, { type: "timestamped_key_value", query: { all: {} }, set_options: { remote_access_allowed: true } });
    assert.equal(all.result.success.map((entry) => entry.remote), [false], "remote access allowed, the store is still read here only");
    assert.equal(recordsOf(all).map((record) => `${record.key}=${record.value}`), [...customers.map(({ key, value }) => `${key}=${value}`), "c9=late"]);
  } finally {
    await sluice.close();
  }
});

test("after a restart the store holds its whole topic again, read from the start", async () => {
  await bed.producer.send({ topic: CUSTOMERS, messages: [{ key: "c0", value: null }] });
  const sluice = await bed.startInstance();
  try {
    const all = await eventually(
      async () => {
        const answer = await query(sluice.url, "global-orders", STORE, { type: "timestamped_key_value", query: { all: {} } });
        return answer.status === "SUCCESS" && answer;
      },
      { what: "the global store after the restart", timeoutMs: 20_000 },
    );
    assert.equal(recordsOf(all).map((record) => record.key), ["c1", "c2", "c3", "c4", "c5", "c6", "c7", "c9"], "c0's tombstone applied, every other row back");
  } finally {
    await sluice.close();
  }
});

test.run();
