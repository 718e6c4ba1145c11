/**
 * A global table of a registry-encoded topic: the global thread reads its records outside the tasks, which fetch a
 * record's schema before reading it (prepareDeserialize), so it fetches the schemas of the records it stores itself,
 * and a stream joining the table (a GlobalKTable join) reads every row, those of schemas registered after the start
 * too. A global store kept by a processor (addGlobalStore) reading the topic with `avro` gets its records alike. A
 * KTable of an Avro topic (builder.table) is joined by a stream and streams its updates on. A global table keyed by
 * Avro keeps its rows under the keys its serde writes, as Kafka Streams' store does, so lookups find them.
 */
import { AvroSerializer, SchemaRegistryClient, SerdeType } from "@confluentinc/schemaregistry";
import * as assert from "uvu/assert";
import type { ProcessorContext } from "../../../../kernel/contracts/streams/processor";
import type { KeyValueStore } from "../../../../kernel/contracts/streams/stores";
import type { TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";
import { Stores } from "../../../../providers/streams/processor/stores";
import { eventually } from "../../../helpers/eventually";
import { registrySuite } from "./registry-topics";

const CUSTOMER = { type: "record", name: "Customer", namespace: "test", fields: [{ name: "name", type: "string" }] };
const CUSTOMER_V2 = { ...CUSTOMER, fields: [...CUSTOMER.fields, { name: "tier", type: "string", default: "basic" }] };

/** Orders (`<id>-orders`, the customer's key as value) joined with the global table of Avro customers (`<id>-customers`) to `<id>-out`. */
function ordersWithCustomers(id: string, registryUrl: string): TopologyProvider {
  return {
    name: id,
    version: "1.0.0",
    config: { "application.id": id, "schema.registry.url": registryUrl },
    topology(builder) {
      const customers = builder.globalTable<string, { name: string }>(`${id}-customers`, { keySerde: "string", valueSerde: "avro" });
      builder
        .stream<string, string>(`${id}-orders`, { keySerde: "string", valueSerde: "string" })
        .join(customers, (_order, customerKey) => customerKey, (_customerKey, customer, order) => `${order}:${customer.name}`)
        .to(`${id}-out`, { keySerde: "string", valueSerde: "string" });
    },
  };
}

const test = registrySuite("registry serdes reading global tables");

test("a stream joins the global table of an Avro topic: every row is read, those of a schema registered while it runs too", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const customer = async (key: string, schema: object, value: object) => {
    const id = await client.register("gt-customers-value", { schemaType: "AVRO", schema: JSON.stringify(schema) });
    return { key, value: await new AvroSerializer(client, SerdeType.VALUE, { useSchemaId: id }).serialize("gt-customers", value) };
  };
  await harness.producer.send({ topic: "gt-customers", messages: [await customer("c1", CUSTOMER, { name: "Ada" }), await customer("c2", CUSTOMER, { name: "Grace" })] });
  await harness.producer.send({ topic: "gt-orders", messages: [{ key: "o1", value: "c1" }, { key: "o2", value: "c2" }] });
  const joined = new Set<string>();
  const reader = harness.kafka.consumer({ groupId: `gt-out-reader-${Date.now()}`, maxWaitTimeInMs: 100 });
  try {
    await reader.connect();
    await reader.subscribe({ topic: "gt-out", fromBeginning: true });
    await reader.run({ eachMessage: async ({ message }) => void joined.add(message.value!.toString()) });
    await harness.runtime([ordersWithCustomers("gt", registryUrl)]).start();
    await eventually(() => joined.has("o1:Ada") && joined.has("o2:Grace"), { what: "the orders joined with the rows restored", timeoutMs: 20_000 });

    await harness.producer.send({ topic: "gt-customers", messages: [await customer("c3", CUSTOMER_V2, { name: "Edsger", tier: "gold" })] });
    // The row reaches the store through the global thread, which the orders do not wait for: an inner join drops an
    // order that comes first, so orders are sent until one finds the row.
    let orders = 0;
    await eventually(
      async () => {
        if ([...joined].some((value) => /^o3-\d+:Edsger$/.test(value))) return true;
        await harness.producer.send({ topic: "gt-orders", messages: [{ key: `o3-${orders++}`, value: "c3" }] });
        return false;
      },
      { what: "an order joined with the row of a schema registered while running", timeoutMs: 20_000, intervalMs: 200 },
    );
    assert.equal([...joined].filter((value) => !value.startsWith("o3-")).sort(), ["o1:Ada", "o2:Grace"]);
  } finally {
    await reader.disconnect();
  }
});

const CUSTOMER_KEY = { type: "record", name: "CustomerKey", namespace: "test", fields: [{ name: "id", type: "string" }] };
const CUSTOMER_KEY_V2 = { ...CUSTOMER_KEY, fields: [...CUSTOMER_KEY.fields, { name: "region", type: "string", default: "eu" }] };

test("a global table keyed by Avro: a join's lookup finds rows whose keys were written with an older schema than the one it writes", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const keyId = await client.register("gk-customers-key", { schemaType: "AVRO", schema: JSON.stringify(CUSTOMER_KEY) });
  const valueId = await client.register("gk-customers-value", { schemaType: "AVRO", schema: JSON.stringify(CUSTOMER) });
  const keys = new AvroSerializer(client, SerdeType.KEY, { useSchemaId: keyId });
  const values = new AvroSerializer(client, SerdeType.VALUE, { useSchemaId: valueId });
  const row = async (id: string, name: string) => ({ key: await keys.serialize("gk-customers", { id }), value: await values.serialize("gk-customers", { name }) });
  await harness.producer.send({ topic: "gk-customers", messages: [await row("c1", "Ada"), await row("c2", "Grace")] });
  // The key subject's latest is a newer schema: a lookup writes keys with it, not with the rows' own.
  await client.register("gk-customers-key", { schemaType: "AVRO", schema: JSON.stringify(CUSTOMER_KEY_V2) });
  await harness.producer.send({ topic: "gk-orders", messages: [{ key: "o1", value: "c1" }, { key: "o2", value: "c2" }, { key: "o3", value: "nobody" }] });
  const provider: TopologyProvider = {
    name: "gk",
    version: "1.0.0",
    config: { "application.id": "gk", "schema.registry.url": registryUrl },
    topology(builder) {
      const customers = builder.globalTable<{ id: string }, { name: string }>("gk-customers", { keySerde: "avro", valueSerde: "avro" });
      builder
        .stream<string, string>("gk-orders", { keySerde: "string", valueSerde: "string" })
        .leftJoin(customers, (_order, id) => ({ id, region: "eu" }), (order, customer) => `${order}:${customer?.name ?? "-"}`)
        .to("gk-out", { keySerde: "string", valueSerde: "string" });
    },
  };
  await harness.runtime([provider]).start();
  const joined = await harness.readTopic("gk-out", (records) => records.length >= 3);
  assert.equal(joined.map((record) => `${record.key}=${record.value}`).sort(), ["o1=c1:Ada", "o2=c2:Grace", "o3=nobody:-"]);
});

test("a global store's processor reading an Avro topic gets every record decoded, at restore", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const id = await client.register("gs-names-value", { schemaType: "AVRO", schema: JSON.stringify(CUSTOMER) });
  const serializer = new AvroSerializer(client, SerdeType.VALUE, { useSchemaId: id });
  const customers = [{ key: "c1", value: await serializer.serialize("gs-names", { name: "Ada" }) }, { key: "c2", value: await serializer.serialize("gs-names", { name: "Grace" }) }];
  await harness.producer.send({ topic: "gs-names", messages: customers });
  await harness.producer.send({ topic: "gs-asks", messages: [{ key: "c1", value: "?" }, { key: "c2", value: "?" }] });
  const provider: TopologyProvider = {
    name: "gs",
    version: "1.0.0",
    config: { "application.id": "gs", "schema.registry.url": registryUrl },
    topology(builder) {
      const names = Stores.keyValueStoreBuilder(Stores.inMemoryKeyValueStore("names"), "string", "string").withLoggingDisabled();
      builder.addGlobalStore<string, { name: string }>(names, "gs-names", { keySerde: "string", valueSerde: "avro" }, () => {
        let store!: KeyValueStore<string, string>;
        return {
          init: (context) => void (store = context.getStateStore("names")),
          process: (record) => store.put(record.key, record.value.name),
        };
      });
      builder
        .stream<string, string>("gs-asks", { keySerde: "string", valueSerde: "string" })
        .process<string, string>(() => {
          let context!: ProcessorContext<string, string>;
          return {
            init: (given) => void (context = given),
            process: (record) => context.forward({ key: record.key, value: String(context.getStateStore<KeyValueStore<string, string>>("names").get(record.key)), timestamp: record.timestamp }),
          };
        })
        .to("gs-answers", { keySerde: "string", valueSerde: "string" });
    },
  };
  await harness.runtime([provider]).start();
  const answers = await harness.readTopic("gs-answers", (records) => records.length >= 2);
  assert.equal(answers.map((record) => `${record.key}=${record.value}`).sort(), ["c1=Ada", "c2=Grace"]);
});

// The table's store writes its changelog (`kt-kt-customers-changelog`) with the serde, as Kafka Streams does: given its
// schema and auto.register.schemas=true (SpecificAvroSerde with Kafka's defaults), the serde registers it under the
// changelog's subject, which the test then finds there.
test("a KTable of an Avro topic (builder.table): a stream joins its rows, its updates flow on decoded, its changelog's subject holds the schema", async ({ harness, registryUrl }) => {
  const client = new SchemaRegistryClient({ baseURLs: [registryUrl] });
  const id = await client.register("kt-customers-value", { schemaType: "AVRO", schema: JSON.stringify(CUSTOMER) });
  const serializer = new AvroSerializer(client, SerdeType.VALUE, { useSchemaId: id });
  const customers = [{ key: "c1", value: await serializer.serialize("kt-customers", { name: "Ada" }) }, { key: "c2", value: await serializer.serialize("kt-customers", { name: "Grace" }) }];
  await harness.producer.send({ topic: "kt-customers", messages: customers });
  await harness.producer.send({ topic: "kt-orders", messages: [{ key: "nobody", value: "o0" }] });
  const provider: TopologyProvider = {
    name: "kt",
    version: "1.0.0",
    config: { "application.id": "kt", "schema.registry.url": registryUrl, "auto.register.schemas": true },
    topology(builder) {
      const table = builder.table<string, { name: string }>("kt-customers", { keySerde: "string", valueSerde: { serde: "avro", schema: CUSTOMER } });
      table.toStream().mapValues((customer) => customer.name).to("kt-names", { keySerde: "string", valueSerde: "string" });
      builder
        .stream<string, string>("kt-orders", { keySerde: "string", valueSerde: "string" })
        .join(table, (order, customer) => `${order}:${customer.name}`)
        .to("kt-joined", { keySerde: "string", valueSerde: "string" });
    },
  };
  await harness.runtime([provider]).start();
  const names = await harness.readTopic("kt-names", (records) => records.length >= 2);
  assert.equal(names.map((record) => `${record.key}=${record.value}`).sort(), ["c1=Ada", "c2=Grace"]);
  // The orders come once the table holds its rows (a stream-table join reads the table as it is when an order comes).
  await harness.producer.send({ topic: "kt-orders", messages: [{ key: "c1", value: "o1" }, { key: "c2", value: "o2" }] });
  const joined = await harness.readTopic("kt-joined", (records) => records.length >= 2);
  assert.equal(joined.map((record) => `${record.key}=${record.value}`).sort(), ["c1=o1:Ada", "c2=o2:Grace"]);
  assert.equal(JSON.parse((await client.getLatestSchemaMetadata("kt-kt-customers-changelog-value")).schema), CUSTOMER);
});

test.run();
