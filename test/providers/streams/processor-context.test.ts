/**
 * What a processor's context offers beyond forwarding (#35 point 7) and how sources timestamp records (#35 point 1):
 * appConfigs, stateDir, the default serdes, custom sensors (in the driver and in /metrics, JSON and Prometheus), and
 * the built-in timestamp extractors on records with negative timestamps.
 */
import * as fs from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { TopologyTestDriver, type ProcessorContext, type StreamsBuilder, type TopologyProvider } from "../../../index";
import type { MetricGroup } from "../../../kernel/contracts/streams/runtime";
import { TOPOLOGY_PROVIDER_CONTRACT } from "../../../kernel/contracts/streams/topology-provider";
import { Kafka, logLevel } from "kafkajs";
import { KAFKA_BOOTSTRAP, type KafkaBootstrap } from "../../../kernel/contracts/kafka-bootstrap";
import { eventually } from "../../helpers/eventually";
import { http, startSluice } from "../../helpers/sluice";

const test = suite("the processor context and timestamp extractors");

/** A processor that times itself with a sensor of its own and writes what its context says. */
function describingTopology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("in")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      let handled!: ReturnType<ReturnType<ProcessorContext["metrics"]>["addLatencyRateTotalSensor"]>;
      let debug!: ReturnType<ReturnType<ProcessorContext["metrics"]>["addSensor"]>;
      return {
        init(given) {
          context = given;
          handled = context.metrics().addLatencyRateTotalSensor("custom", "describer", "handle");
          debug = context.metrics().addSensor("describer-debug", "DEBUG");
          debug.add({ name: "debug-total", group: "custom-debug", tags: { "task-id": context.taskId } }, "total");
        },
        process(record) {
          handled.record(2);
          debug.record(5);
          const described = {
            applicationId: context.appConfigs()["application.id"],
            commitInterval: context.appConfigs()["commit.interval.ms"],
            prefixed: context.appConfigsWithPrefix("custom."),
            stateDir: context.stateDir(),
            serdes: [context.keySerde().name, context.valueSerde().name],
          };
          context.commit();
          context.forward(record.withValue(JSON.stringify(described)));
        },
      };
    })
    .to("out");
}

function metric(groups: MetricGroup[], group: string, name: string) {
  return groups.find((candidate) => candidate.name === group)?.metrics.find((candidate) => candidate.name === name);
}

test("appConfigs, appConfigsWithPrefix, stateDir, keySerde/valueSerde and sensors in the driver", async () => {
  const driver = await TopologyTestDriver.create(describingTopology, { config: { "application.id": "describer", "custom.colour": "blue", "default.value.serde": "json" } });
  await driver.createInputTopic<string, unknown>("in", "string", "json").pipeInput("k", "v");
  const described = JSON.parse(driver.createOutputTopic<string, string>("out", "string", "json").readValue());
  assert.equal(described.applicationId, "describer");
  assert.is(described.commitInterval, 100);
  assert.equal(described.prefixed, { colour: "blue" });
  assert.ok(described.stateDir.endsWith("/describer/0_0") && fs.existsSync(described.stateDir), described.stateDir);
  assert.equal(described.serdes, ["string", "json"]);
  const groups = driver.metrics();
  const tags = metric(groups, "stream-custom-metrics", "handle-total")?.tags;
  assert.equal(tags, { "thread-id": "describer-test-driver", "task-id": "0_0", "custom-id": "describer" });
  assert.is(metric(groups, "stream-custom-metrics", "handle-total")?.value, 1);
  assert.is(metric(groups, "stream-custom-metrics", "handle-latency-avg")?.value, 2);
  assert.is(metric(groups, "stream-custom-metrics", "handle-latency-max")?.value, 2);
  // A DEBUG sensor records nothing at the default recording level (INFO).
  assert.is(metric(groups, "custom-debug", "debug-total")?.value, 0);
  await driver.close();
});

test("custom sensors show in an application's /metrics, JSON and Prometheus", async () => {
  const provider: TopologyProvider = { name: "Describer", version: "1.0.0", config: { "application.id": "describer-app" }, topology: describingTopology };
  const sluice = await startSluice({ services: { [TOPOLOGY_PROVIDER_CONTRACT]: [provider] } });
  try {
    const brokers = sluice.kernel.components.resolve<KafkaBootstrap>(KAFKA_BOOTSTRAP).servers();
    const producer = new Kafka({ brokers, logLevel: logLevel.NOTHING }).producer();
    await producer.connect();
    await producer.send({ topic: "in", messages: [{ key: "k", value: "v" }] });
    await producer.disconnect();
    const url = `${sluice.url}/api/v1/streams/describer-app/metrics`;
    const handled = async () => metric((await http(url)).json() as MetricGroup[], "stream-custom-metrics", "handle-total")?.value;
    await eventually(async () => (await handled()) === 1, { what: "the custom sensor's total in /metrics", timeoutMs: 20_000 });
    const prometheus = (await http(`${url}?format=prometheus`)).text;
    assert.match(prometheus, /streams_handle_total\{[^}]*custom_id="describer"[^}]*\} 1/);
    assert.match(prometheus, /streams_handle_latency_avg\{[^}]*group="stream-custom-metrics"[^}]*\} 2/);
  } finally {
    await sluice.close();
  }
});

/** Records of `in` to `out` with the timestamps the source gave them; negative timestamps piped as plain records. */
async function timestamped(config: Record<string, string>, timestamps: number[]): Promise<number[] | Error> {
  const driver = await TopologyTestDriver.create((builder) => builder.stream<string, string>("in").to("out"), { config });
  try {
    await driver.pipeInput("in", timestamps.map((timestamp, i) => ({ key: `k${i}`, value: "v", timestamp })));
    return driver.readOutput("out").map((record) => record.timestamp!);
  } catch (error) {
    return error as Error;
  } finally {
    await driver.close();
  }
}

test("negative timestamps: fail by default (whatever the error policy), skipped, or the partition time", async () => {
  const failed = await timestamped({ "processing.error.policy": "log_and_continue" }, [5, -1]);
  assert.instance(failed, Error);
  assert.match(String(failed), /invalid \(negative\) timestamp/);
  assert.equal(await timestamped({ "default.timestamp.extractor": "LogAndSkipOnInvalidTimestamp" }, [5, -1, 3]), [5, 3]);
  assert.equal(await timestamped({ "default.timestamp.extractor": "org.apache.kafka.streams.processor.UsePartitionTimeOnInvalidTimestamp" }, [5, -1, 3, -7]), [5, 5, 3, 5]);
  assert.match(String(await timestamped({ "default.timestamp.extractor": "UsePreviousTimeOnInvalidTimestamp" }, [-1])), /partition's time is unknown/);
  const creation = await TopologyTestDriver.create((builder) => builder.stream("in").to("out"), { config: { "default.timestamp.extractor": "NoSuchExtractor" } }).then(
    () => undefined,
    (error: Error) => error,
  );
  assert.match(String(creation), /unknown timestamp extractor 'NoSuchExtractor'/);
});

test.run();
