/**
 * streams.delivery.timeout.ms bounds the producer's retries: when no Produce answer reaches the application (a proxy
 * drops every one, its connection with it) for longer than that, the application goes to ERROR naming the
 * topic-partition, the cause and the timeout — while its fetches keep working, so it is the produce that fails.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { KafkaProxy } from "../../helpers/kafka-proxy";
import { Produce } from "../../../providers/kafka-protocol";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples } from "../../helpers/streams";
import { startTestBroker } from "../broker/broker-test-kit";

test("produce answers lost for longer than the delivery timeout put the application in ERROR naming the partition", async () => {
  const broker = await startTestBroker();
  const proxy = await KafkaProxy.start(broker.broker.host, broker.broker.port);
  const sluice = await startSluiceWithExamples({
    "streams.bootstrap.servers": `${broker.broker.host}:${proxy.port}`,
    "streams.auto.create.topics": "true",
    "applications.wordcount.delivery.timeout.ms": "1500",
  });
  const stateOf = async () => (await http(`${sluice.url}/api/v1/streams/wordcount`)).json() as { state: { state: string }; exception?: string };
  try {
    await eventually(async () => (await stateOf()).state.state === "RUNNING", { timeoutMs: 20_000, what: "wordcount RUNNING" });
    proxy.cutAnswers(Produce.apiKey, Number.POSITIVE_INFINITY);
    const producer = broker.kafka().producer();
    await producer.connect();
    await producer.send({ topic: "words", messages: [{ value: "lost answers" }], acks: -1 });
    const failed = await eventually(async () => {
      const state = await stateOf();
      return state.state.state === "ERROR" && state;
    }, { timeoutMs: 20_000, what: "wordcount in ERROR" });
    assert.match(String(failed.exception), /ProduceError: producing to (word-counts|wordcount-\S+) partition \d+ failed: connection to broker .*delivery timeout 1500 ms/);
    assert.ok(proxy.counts.cuts > 1, `retried: ${proxy.counts.cuts} answers cut`);
  } finally {
    // The other example applications' produce answers were cut too: answered again, they stop at once at the close
    // instead of each waiting out its 30 s stop timeout (their retries outlast it).
    proxy.cutAnswers(Produce.apiKey, 0);
    await sluice.close();
    await proxy.close();
    await broker.close();
  }
});

test.run();
