/**
 * Global stores kept by a processor on a broker (StreamsBuilder.addGlobalStore, issue #34 point 4): the processor
 * fills the store from every partition of its topic before the tasks process anything, keeps it up to date while the
 * application runs, and every start runs the topic through it again (Kafka Streams 4.x's reprocessing on restore,
 * which passes over records with a null key; a live update hands them to the processor). Queries answer on the
 * instance, with no routing.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { ProcessorSupplier } from "../../../kernel/contracts/streams/processor";
import type { KeyValueStore } from "../../../kernel/contracts/streams/stores";
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../helpers/eventually";
import { http, type RunningSluice } from "../../helpers/sluice";
import { query, recordsOf } from "../../plugins/applications-api/query-client";
import { globalTestBed, type GlobalTestBed } from "./global-test-bed";

const test = suite("global stores kept by a processor on the embedded broker");

const CUSTOMERS = "gs-customers";
const ORDERS = "gs-orders";
const OUTPUT = "gs-enriched";
const STORE = "customer-names";
const NO_KEY = "(no key)";

let bed: GlobalTestBed;

/** Keeps upper-cased names; a record without a key is kept under NO_KEY, so the test sees whether it arrived. */
const keepNames: ProcessorSupplier<string | null, string | null, void, void> = () => {
  let names!: KeyValueStore<string, string>;
  return {
    init: (context) => void (names = context.getStateStore<KeyValueStore<string, string>>(STORE)),
    process: (record) => {
      const key = record.key ?? NO_KEY;
      if (record.value === null) names.delete(key);
      else names.put(key, record.value.toUpperCase());
    },
  };
};

function topology(builder: StreamsBuilder): void {
  builder.addGlobalStore({ name: STORE, type: "key_value", keySerde: "string", valueSerde: "string" }, CUSTOMERS, { keySerde: "string", valueSerde: "string" }, keepNames);
  builder
    .stream<string, string>(ORDERS)
    .process<string, string>(() => {
      let names!: KeyValueStore<string, string>;
      let forward!: (record: { key: string; value: string; timestamp: number }) => void;
      return {
        init: (context) => {
          names = context.getStateStore<KeyValueStore<string, string>>(STORE);
          forward = (record) => context.forward(record);
        },
        process: (record) => forward({ key: record.key, value: `${record.key}:${names.get(record.value) ?? "?"}`, timestamp: record.timestamp }),
      };
    })
    .to(OUTPUT);
}

const provider: TopologyProvider = { name: "global-names", version: "1", config: { "application.id": "global-names" }, topology };

async function allNames(sluice: RunningSluice): Promise<string[]> {
  const answer = await eventually(
    async () => {
      const found = await query(sluice.url, "global-names", STORE, { type: "key_value", query: { all: {} }, set_options: { remote_access_allowed: true } });
      return found.status === "SUCCESS" && found;
    },
    { what: "the global store's rows", timeoutMs: 20_000 },
  );
  assert.equal(answer.result.success.map((entry) => entry.remote), [false], "answered by this instance only");
  return recordsOf(answer).map((record) => `${record.key}=${record.value}`);
}

test.before(async () => {
  bed = await globalTestBed({ customers: CUSTOMERS, orders: ORDERS, output: OUTPUT }, provider);
});

test.after(async () => {
  await bed?.close();
});

test("the processor fills the store before the tasks start, a null key is passed over in the restore and processed live, and queries answer here", async () => {
  const customers = Array.from({ length: 6 }, (_, i) => ({ key: `c${i}`, value: `name${i}` }));
  const sent = await bed.producer.send({ topic: CUSTOMERS, messages: customers });
  assert.equal(new Set(sent.map((entry) => entry.partition)).size, 2, "the customers are on both partitions");
  await bed.producer.send({ topic: CUSTOMERS, messages: [{ key: null, value: "restored" }] });
  const orders = Array.from({ length: 9 }, (_, i) => ({ key: `o${i}`, value: `c${i % 6}` }));
  await bed.producer.send({ topic: ORDERS, messages: orders });
  const sluice = await bed.startInstance();
  try {
    const joined = await bed.readOutput((values) => values.length >= orders.length);
    assert.equal(joined.sort(), orders.map(({ key, value }) => `${key}:NAME${value.slice(1)}`).sort(), "every order saw its customer, as the processor kept it");
    assert.equal(await allNames(sluice), customers.map(({ key, value }) => `${key}=${value.toUpperCase()}`), "the restore passed the null key over");

    await bed.producer.send({ topic: CUSTOMERS, messages: [{ key: null, value: "live" }, { key: "c1", value: null }, { key: "c7", value: "late" }] });
    await eventually(async () => (await allNames(sluice)).includes("c7=LATE"), { what: "c7 in the global store", timeoutMs: 20_000 });
    assert.equal(await allNames(sluice), [NO_KEY + "=LIVE", "c0=NAME0", "c2=NAME2", "c3=NAME3", "c4=NAME4", "c5=NAME5", "c7=LATE"], "a live update gives the processor null keys too");
    const described = (await http(`${sluice.url}/api/v1/applications/global-names`)).json() as { instances: { stores: string[] }[] };
    assert.equal(described.instances.map((instance) => instance.stores), [[STORE]], "the instance hosts the global store");
  } finally {
    await sluice.close();
  }
});

test("a restart runs the whole topic through the processor again: the rows are its, and the null-key records are passed over", async () => {
  const sluice = await bed.startInstance();
  try {
    assert.equal(await allNames(sluice), ["c0=NAME0", "c2=NAME2", "c3=NAME3", "c4=NAME4", "c5=NAME5", "c7=LATE"]);
  } finally {
    await sluice.close();
  }
});

test.run();
