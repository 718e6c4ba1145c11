/**
 * Record headers end to end on the embedded broker: headers kcat writes (-H) are read by a processor, which adds
 * one, travel through a repartition topic (whose origin stamp the processors never see) into a count, and come back
 * out of the output topic to kcat, in order, repeated names and all.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../helpers/eventually";
import { processorOf } from "../../helpers/processors";
import { runKcat } from "../broker/broker-test-kit";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("record headers on Kafka");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

/** What the processors saw: each record's header names, so a test can tell the origin stamp stayed hidden. */
const seen: string[][] = [];

const headersApp: TopologyProvider = {
  name: "Headers",
  version: "1.0.0",
  config: { "application.id": "headers-app", "default.key.serde": "string", "default.value.serde": "string" },
  topology(builder: StreamsBuilder) {
    builder
      .stream<string, string>("headers-in")
      .process(
        processorOf<string, string, string, string>((record, context) => {
          record.headers.add("seen-by", "sluice");
          context.forward(record.withValue(record.value.toUpperCase()));
        }),
      )
      .groupBy((_key, value) => value)
      .count({ storeName: "headers-counts" })
      .toStream()
      .process(
        processorOf<string, number, string, string>((record, context) => {
          seen.push(record.headers.toArray().map((header) => header.key));
          context.forward(record.withValue(String(record.value)));
        }),
      )
      .to("headers-out");
  },
};

test("headers written by kcat reach the output topic through a repartition, and kcat reads them back", async () => {
  const bootstrap = harness.bootstrap.join(",");
  const runtime = harness.runtime([headersApp]);
  await runtime.start();
  const app = runtime.application("headers-app")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });

  const first = await runKcat(bootstrap, ["-P", "-t", "headers-in", "-K:", "-H", "trace=t1", "-H", "dup=a", "-H", "dup=b"], "k1:apple\nk2:pear\n");
  assert.is(first.code, 0, first.stderr);
  const second = await runKcat(bootstrap, ["-P", "-t", "headers-in", "-K:", "-H", "trace=t2"], "k3:plum\n");
  assert.is(second.code, 0, second.stderr);
  await harness.readTopic("headers-out", (records) => records.length >= 3);

  const read = await runKcat(bootstrap, ["-C", "-t", "headers-out", "-e", "-q", "-f", "%k|%s|%h\\n"]);
  assert.is(read.code, 0, read.stderr);
  assert.equal(read.stdout.trim().split("\n").sort(), [
    "APPLE|1|trace=t1,dup=a,dup=b,seen-by=sluice",
    "PEAR|1|trace=t1,dup=a,dup=b,seen-by=sluice",
    "PLUM|1|trace=t2,seen-by=sluice",
  ]);
  assert.ok(seen.length >= 3 && seen.every((names) => !names.includes("sluice.origin")), JSON.stringify(seen));
});

test.run();
