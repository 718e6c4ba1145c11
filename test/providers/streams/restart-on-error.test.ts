/**
 * restart.on.error=backoff: an application that fails comes back by itself after a growing wait, and its restarts
 * are counted; with the default (never) it stays in ERROR.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { ConfigValue, TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("restart on error");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

/** Fails on the value `boom` the first `failures` times it sees it (a dependency that is down for a while). */
function flakyProvider(id: string, failures: number, config: Record<string, ConfigValue>): TopologyProvider {
  let failed = 0;
  return {
    name: "Flaky",
    version: "1.0.0",
    config: { "application.id": id, ...config },
    topology(builder: StreamsBuilder) {
      builder
        .stream<string, string>(`${id}-in`, { keySerde: "string", valueSerde: "string" })
        .mapValues((value) => {
          if (value === "boom" && failed < failures) {
            failed++;
            throw new Error(`dependency down (${failed})`);
          }
          return value.toUpperCase();
        })
        .to(`${id}-out`, { keySerde: "string", valueSerde: "string" });
    },
  };
}

test("an application failing twice comes back by itself, its restarts counted", async () => {
  const runtime = harness.runtime([flakyProvider("flaky", 2, { "restart.on.error": "backoff", "restart.backoff.ms": 100, "restart.backoff.max.ms": 2_000 })]);
  await runtime.start();
  const app = runtime.application("flaky")!;
  const states: string[] = [];
  app.onStateChange((change) => states.push(change.to));
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  await harness.producer.send({ topic: "flaky-in", messages: ["before", "boom", "after"].map((value) => ({ key: "k", value })) });
  const output = await harness.readTopic("flaky-out", (records) => records.some((record) => record.value?.toString() === "AFTER"));
  assert.ok(output.some((record) => record.value?.toString() === "BOOM"), "the record that failed twice is processed once the dependency is back");
  assert.is(states.filter((state) => state === "ERROR").length, 2, states.join(" → "));
  assert.is(app.restarts, 2);
  await eventually(() => app.state === "RUNNING", { what: "RUNNING after the restarts" });
  assert.is(app.exception, null);
  const appInfo = app.metrics().find((group) => group.name === "app-info")!;
  assert.is(appInfo.metrics.find((metric) => metric.name === "restarts-total")?.value, 2);
});

test("by default a failed application stays in ERROR", async () => {
  const runtime = harness.runtime([flakyProvider("stays-failed", 1, { "restart.backoff.ms": 100 })]);
  await runtime.start();
  const app = runtime.application("stays-failed")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  await harness.producer.send({ topic: "stays-failed-in", messages: [{ key: "k", value: "boom" }] });
  await eventually(() => app.state === "ERROR", { what: "ERROR", timeoutMs: 15_000 });
  // An absence can only be watched for a while: here ten times the 100 ms a backoff restart would wait.
  for (const watchUntil = Date.now() + 1_000; Date.now() < watchUntil; await new Promise((resolve) => setTimeout(resolve, 50))) {
    assert.is(app.state, "ERROR");
  }
  assert.is(app.restarts, 0);
  assert.match(app.exception ?? "", /dependency down \(1\)/);
});

test.run();
