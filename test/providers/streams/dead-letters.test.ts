/**
 * processing.error.policy=dead_letter: a record that fails goes, as consumed (its headers too), to the dead-letter
 * topic with headers naming the error and its origin after its own, processing goes on, and a record a previous run dead-lettered without committing
 * is not dead-lettered twice.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { poisonSensitive } from "./poison-sensitive";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("dead letters");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

test("a poison record lands in the dead-letter topic with its own headers and the error's, read back with kcat, and processing goes on", async () => {
  const runtime = harness.runtime([poisonSensitive("dlq-app")]);
  await runtime.start();
  const app = runtime.application("dlq-app")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  const traced = { trace: "t-1", "sluice.dlq.phase": "the record's own" };
  await harness.producer.send({ topic: "dlq-app-in", messages: ["fine", "poison pill", "also fine"].map((value, i) => ({ key: `k${i}`, value, headers: traced })) });
  const output = await harness.readTopic("dlq-app-out", (records) => records.some((record) => record.value?.toString() === "ALSO FINE"));
  assert.equal(output.map((record) => record.value?.toString()), ["FINE", "ALSO FINE"]);
  assert.is(app.state, "RUNNING");

  const { stdout } = await promisify(execFile)("kcat", ["-C", "-b", harness.bootstrap.join(","), "-t", "dlq-app-dlq", "-e", "-q", "-f", "%k|%s|%h\\n"], { timeout: 20_000 });
  const [line, ...more] = stdout.trim().split("\n");
  assert.is(more.length, 0, stdout);
  const [key, value, headers] = line.split("|");
  assert.equal([key, value], ["k1", "poison pill"]);
  const pairs = headers.split(",").map((header) => header.split("=") as [string, string]);
  // The record's headers as consumed, then the dead letter's, which win where a name repeats.
  assert.equal(pairs.slice(0, 2), [["trace", "t-1"], ["sluice.dlq.phase", "the record's own"]]);
  const named = Object.fromEntries(pairs.slice(2));
  assert.equal(named, {
    "sluice.dlq.error": "cannot digest 'poison pill'",
    "sluice.dlq.error.class": "TypeError",
    "sluice.dlq.phase": "processing",
    "sluice.dlq.application.id": "dlq-app",
    "sluice.dlq.task.id": "0_0",
    "sluice.dlq.topic": "dlq-app-in",
    "sluice.dlq.partition": "0",
    "sluice.dlq.offset": "1",
  });
});

test("a record that a run dead-lettered without committing is not dead-lettered again", async () => {
  // What a run killed after writing the dead letter, before committing its batch, leaves behind.
  await harness.producer.send({ topic: "redo-app-in", messages: ["fine", "poison again", "fine too"].map((value, i) => ({ key: `k${i}`, value })) });
  const headers = { "sluice.dlq.task.id": "0_0", "sluice.dlq.topic": "redo-app-in", "sluice.dlq.partition": "0", "sluice.dlq.offset": "1" };
  await harness.producer.send({ topic: "redo-app-dlq", messages: [{ key: "k1", value: "poison again", headers }] });

  const runtime = harness.runtime([poisonSensitive("redo-app")]);
  await runtime.start();
  await harness.readTopic("redo-app-out", (records) => records.some((record) => record.value?.toString() === "FINE TOO"));
  await harness.producer.send({ topic: "redo-app-in", messages: [{ key: "k3", value: "poison for real" }, { key: "k4", value: "last" }] });
  await harness.readTopic("redo-app-out", (records) => records.some((record) => record.value?.toString() === "LAST"));
  const dead = await harness.readTopic("redo-app-dlq", (records) => records.length >= 2);
  assert.equal(dead.map((record) => record.value?.toString()), ["poison again", "poison for real"]);
});

test.run();
