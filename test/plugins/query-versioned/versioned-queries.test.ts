/**
 * Interactive queries of versioned_key_value stores over REST (docs/api.md#query-request): get of the latest version
 * or of the one valid as of a time, with its validity; the parameters validated as the other queries' are.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Kafka, logLevel } from "kafkajs";
import { Stores, type StreamsBuilder, type TopologyProvider, type VersionedKeyValueStore } from "../../../index";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../../kernel/contracts/kafka-bootstrap";
import { TOPOLOGY_PROVIDER_CONTRACT } from "../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../helpers/eventually";
import { startSluice, type RunningSluice } from "../../helpers/sluice";
import { postQuery, query, recordsOf } from "../applications-api/query-client";

const test = suite("interactive queries of versioned stores");

/** Every price record is a version of its product at the record's timestamp; an empty value deletes. */
function prices(builder: StreamsBuilder): void {
  builder.addStateStore(Stores.versionedKeyValueStoreBuilder(Stores.persistentVersionedKeyValueStore("price-history", 3_600_000), "string", "json"));
  builder.stream<string, string>("prices", { keySerde: "string", valueSerde: "string" }).process(
    () => {
      let store!: VersionedKeyValueStore<string, number>;
      return {
        init: (context) => void (store = context.getStateStore("price-history")),
        process: (record) => void (record.value === "" ? store.delete(record.key, record.timestamp) : store.put(record.key, Number(record.value), record.timestamp)),
      };
    },
    ["price-history"],
  );
}

const T0 = 1_795_000_000_000;
let sluice: RunningSluice;

const versioned = (body: object) => query(sluice.url, "prices-app", "price-history", { type: "versioned_key_value", query: { get: body } });

test.before(async () => {
  const provider: TopologyProvider = { name: "Prices", version: "1.0.0", config: { "application.id": "prices-app" }, topology: prices };
  sluice = await startSluice({ services: { [TOPOLOGY_PROVIDER_CONTRACT]: [provider] } });
  const brokers = sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
  const producer = new Kafka({ brokers, logLevel: logLevel.NOTHING }).producer();
  await producer.connect();
  const price = (key: string, value: string, at: number) => ({ key, value, timestamp: String(T0 + at) });
  // Out of order: the version of 20 ms comes last and ends at 30 ms.
  await producer.send({ topic: "prices", acks: -1, messages: [price("apple", "10", 10), price("apple", "30", 30), price("apple", "20", 20), price("pear", "5", 10), price("pear", "", 40)] });
  await producer.disconnect();
  await eventually(async () => recordsOf(await versioned({ key: "apple", as_of: T0 + 25 }))[0]?.value === 20, { timeoutMs: 20_000, what: "the prices to be stored" });
});

test.after(async () => {
  await sluice?.close();
});

test("get answers the latest version with valid_from and a null valid_to", async () => {
  const answer = await versioned({ key: "apple" });
  assert.is(answer.status, "SUCCESS");
  assert.equal(recordsOf(answer), [{ key: "apple", value: 30, valid_from: T0 + 30, valid_to: null }]);
});

test("get with as_of answers the version valid then, an out-of-order one included", async () => {
  assert.equal(recordsOf(await versioned({ key: "apple", as_of: T0 + 25 })), [{ key: "apple", value: 20, valid_from: T0 + 20, valid_to: T0 + 30 }]);
  assert.equal(recordsOf(await versioned({ key: "apple", as_of: String(T0 + 10) })), [{ key: "apple", value: 10, valid_from: T0 + 10, valid_to: T0 + 20 }]);
  assert.equal(recordsOf(await versioned({ key: "apple", as_of: T0 + 5 })), []);
});

test("a deleted key answers nothing now, and its old version as of before the delete", async () => {
  assert.equal(recordsOf(await versioned({ key: "pear" })), []);
  assert.equal(recordsOf(await versioned({ key: "pear", as_of: T0 + 39 })), [{ key: "pear", value: 5, valid_from: T0 + 10, valid_to: T0 + 40 }]);
});

test("a bad as_of, a missing key, another query or another type are 400s naming the fault", async () => {
  const post = (body: unknown) => postQuery(sluice.url, "prices-app", "price-history", body);
  const badTime = await post({ type: "versioned_key_value", query: { get: { key: "apple", as_of: "yesterday" } } });
  assert.is(badTime.status, 400);
  assert.match(badTime.text, /query\.get\.as_of/);
  const noKey = await post({ type: "versioned_key_value", query: { get: { as_of: T0 } } });
  assert.is(noKey.status, 400);
  assert.match(noKey.text, /query\.get\.key.*required/);
  const range = await post({ type: "versioned_key_value", query: { range: { key_from: "a", key_to: "b" } } });
  assert.is(range.status, 400);
  assert.match(range.text, /not valid for store type 'versioned_key_value'/);
  const wrongType = await post({ type: "key_value", query: { get: { key: "apple" } } });
  assert.is(wrongType.status, 400);
  assert.match(wrongType.text, /is a 'versioned_key_value' store/);
});

test.run();
