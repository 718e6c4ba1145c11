/*
 * Global stores in two `sluice start` processes on one broker (issue #34 point 4): each instance holds a global
 * table and a global store kept by a processor whole — every partition of their topics, caught up before its tasks
 * start and followed while they run — while the two split the stream's partitions. A query of a global store, on
 * either instance, is answered by that instance alone: one answer, from its own server, not remote, even with remote
 * access allowed (a partitioned store's query would then be fanned out to the other instance).
 */
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Consumer } from "kafkajs";
import { eventually } from "../../helpers/eventually";
import { http, REPO_ROOT } from "../../helpers/sluice";
import { startWordcountCluster, type WordcountCluster, type WordcountInstance } from "./wordcount-processes";

const test = suite("global stores in two sluice processes");
const FLAGS = [`--plugins.packages=${path.join(REPO_ROOT, "test", "fixtures", "global-lookup")}`];
const APP = "global-lookup";

let cluster: WordcountCluster | undefined;
let reader: Consumer | undefined;

test.after(async () => {
  await reader?.disconnect().catch(() => undefined);
  await cluster?.close();
});

interface Answer {
  status: string;
  result: { success: { server: string; remote: boolean; records: { key: string; value: string }[] }[] };
}

async function queryStore(instance: WordcountInstance, store: string, query: object): Promise<Answer> {
  const response = await http(`${instance.url}/api/v1/applications/${APP}/stores/${store}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: store === "countries" ? "timestamped_key_value" : "key_value", set_options: { remote_access_allowed: true }, query }),
  });
  if (response.status !== 200) throw new Error(`the query of '${store}' answered ${response.status}: ${response.text}`);
  return response.json() as Answer;
}

/** The rows of a global store as one instance answers `all`, checking that it answered alone. */
async function rowsOn(instance: WordcountInstance, store: string): Promise<string[]> {
  const answer = await queryStore(instance, store, { all: {} });
  if (answer.status !== "SUCCESS") return [];
  assert.equal(answer.result.success.map((entry) => [entry.server, entry.remote]), [[instance.server, false]], `'${store}' answered by ${instance.server} alone`);
  return answer.result.success[0].records.map(({ key, value }) => `${key}=${typeof value === "object" ? (value as { value: string }).value : value}`);
}

const ordersPartitions = (instances: { assignments: { topic: string; partitions: number[] }[] }[]) =>
  instances.map((instance) => instance.assignments.find((entry) => entry.topic === "gl-orders")?.partitions ?? []);

test("each instance reads both global stores in full and answers their queries alone, while the two split the stream", async () => {
  cluster = await startWordcountCluster(1);
  const admin = cluster.kafka.admin();
  await admin.connect();
  await admin.createTopics({
    waitForLeaders: true,
    topics: [
      { topic: "gl-countries", numPartitions: 3 },
      { topic: "gl-rates", numPartitions: 2 },
      { topic: "gl-orders", numPartitions: 4 },
      { topic: "gl-enriched", numPartitions: 1 },
    ],
  });
  await admin.disconnect();
  const countries = Array.from({ length: 12 }, (_, i) => ({ key: `c${String(i).padStart(2, "0")}`, value: `country${i}` }));
  const rates = Array.from({ length: 12 }, (_, i) => ({ key: `c${String(i).padStart(2, "0")}`, value: `rate${i}` }));
  const sent = await cluster.producer.send({ topic: "gl-countries", messages: countries, acks: -1 });
  assert.equal(new Set(sent.map((entry) => entry.partition)).size, 3, "the countries are on all three partitions");
  await cluster.producer.send({ topic: "gl-rates", messages: rates, acks: -1 });

  const [a, b] = await Promise.all([cluster.start(undefined, undefined, FLAGS), cluster.start(undefined, undefined, FLAGS)]);
  await eventually(
    async () => {
      const seen = await Promise.all([a, b].map(async (instance) => ((await http(`${instance.url}/api/v1/applications/${APP}`)).json() as { instances?: { assignments: { topic: string; partitions: number[] }[] }[] }).instances ?? []));
      return seen.every((list) => list.length === 2 && ordersPartitions(list).every((partitions) => partitions.length === 2));
    },
    { timeoutMs: 45_000, intervalMs: 200, what: "both instances in the group, two partitions of gl-orders each" },
  );

  const wantedCountries = countries.map(({ key, value }) => `${key}=${value}`);
  const wantedRates = rates.map(({ key, value }) => `${key}=${value.toUpperCase()}`);
  for (const instance of [a, b]) {
    assert.equal(await rowsOn(instance, "countries"), wantedCountries, `every country on ${instance.server}`);
    assert.equal(await rowsOn(instance, "rates"), wantedRates, `every rate, as the processor kept it, on ${instance.server}`);
    for (const { key } of countries) {
      const answer = await queryStore(instance, "rates", { get: { key } });
      assert.equal(answer.result.success.map((entry) => [entry.server, entry.remote]), [[instance.server, false]], `get ${key} answered by ${instance.server} alone`);
    }
  }

  // Rows written while both run reach both instances.
  await cluster.producer.send({ topic: "gl-countries", messages: [{ key: "c99", value: "late" }], acks: -1 });
  await cluster.producer.send({ topic: "gl-rates", messages: [{ key: "c99", value: "fresh" }, { key: "c00", value: null }], acks: -1 });
  for (const instance of [a, b]) {
    await eventually(async () => (await rowsOn(instance, "countries")).includes("c99=late") && (await rowsOn(instance, "rates")).join() === [...wantedRates.slice(1), "c99=FRESH"].join(), {
      timeoutMs: 20_000,
      what: `the late rows on ${instance.server}`,
    });
  }

  // Orders on all four partitions, so both instances' tasks join: each finds every row in its own global stores.
  const orders = Array.from({ length: 16 }, (_, i) => ({ key: `o${i}`, value: `c${String(i % 12).padStart(2, "0")}` }));
  const placed = await cluster.producer.send({ topic: "gl-orders", messages: orders, acks: -1 });
  assert.equal(new Set(placed.map((entry) => entry.partition)).size, 4, "the orders are on all four partitions");
  const enriched: string[] = [];
  reader = cluster.kafka.consumer({ groupId: "gl-reader" });
  await reader.connect();
  await reader.subscribe({ topic: "gl-enriched", fromBeginning: true });
  await reader.run({ eachMessage: async ({ message }) => void enriched.push(message.value!.toString()) });
  await eventually(() => enriched.length >= orders.length, { timeoutMs: 30_000, what: "every order enriched" });
  const expected = orders.map(({ key, value }) => {
    const index = Number(value.slice(1));
    return `${key}:country${index}:${index === 0 ? "?" : `RATE${index}`}`;
  });
  assert.equal([...enriched].sort(), expected.sort());
});

test.run();
