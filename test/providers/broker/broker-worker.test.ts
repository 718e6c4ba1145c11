import { Kafka } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startBrokerInWorker } from "../../../providers/broker";
import { eventually } from "../../helpers/eventually";
import { kafkaConfig } from "./broker-test-kit";

const test = suite("broker: in a worker thread");

test("a broker in a worker thread serves kafkajs and closes", async () => {
  const logged: string[] = [];
  const record = (msg: string) => void logged.push(msg);
  const broker = await startBrokerInWorker({ port: 0, storage: "memory", logger: { debug: record, info: record, warn: record, error: record } });
  try {
    const kafka = new Kafka(kafkaConfig(`${broker.host}:${broker.port}`));
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({ topic: "threaded", messages: [{ key: "k", value: "from the main thread" }] });
    await producer.disconnect();

    const consumer = kafka.consumer({ groupId: "threaded-readers", maxWaitTimeInMs: 100 });
    const values: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topic: "threaded", fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void values.push(String(message.value)) });
    await eventually(() => values.length === 1, { what: "the record" });
    await consumer.disconnect();
    assert.equal(values, ["from the main thread"]);
    // The worker's log lines reach the logger given in this thread.
    assert.ok(logged.includes("broker listening"));
  } finally {
    await broker.close();
  }
  const kafka = new Kafka(kafkaConfig(`${broker.host}:${broker.port}`, { retry: { retries: 0 } }));
  const refused = await kafka.admin().connect().then(
    () => false,
    () => true,
  );
  assert.ok(refused, "the broker no longer accepts connections");
});

test.run();
