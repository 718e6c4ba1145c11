import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ApplicationHandle } from "../../../kernel/contracts/streams/runtime";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import { WordCountProvider } from "../../../providers/examples";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "./streams-harness";
import { rowValue } from "../../helpers/table-rows";

const test = suite("StreamsRuntime: instances of one application, and failures");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: "words", numPartitions: 4 }, { topic: "numbers", numPartitions: 1 }] });
  await admin.disconnect();
});
test.after(async () => {
  await harness.close();
});

async function localCount(app: ApplicationHandle, word: string): Promise<number | undefined> {
  const handle = app.store("counts")!;
  for (const partition of handle.localPartitions()) {
    const value = await rowValue(handle.readOnly(partition), word);
    if (value !== undefined) return value as number;
  }
  return undefined;
}

const partitionsOf = (instance: { assignments: { topic: string; partitions: number[] }[] }) =>
  instance.assignments.find((entry) => entry.topic === "words")?.partitions ?? [];

test("two instances split the partitions, see each other, and one takes over when the other stops", async () => {
  const first = harness.runtime([new WordCountProvider()], { server: "127.0.0.1:7101" });
  const second = harness.runtime([new WordCountProvider()], { server: "127.0.0.1:7102" });
  await first.start();
  await second.start();
  const a = first.application("wordcount")!;
  const b = second.application("wordcount")!;
  const split = await eventually(
    async () => {
      if (a.state !== "RUNNING" || b.state !== "RUNNING") return false;
      const seen = await a.instances();
      return seen.length === 2 && seen.every((instance) => partitionsOf(instance).length === 2) && seen;
    },
    { what: "two instances with two partitions each", timeoutMs: 20_000 },
  );
  assert.equal(split.map((instance) => instance.server), ["127.0.0.1:7101", "127.0.0.1:7102"]);
  assert.equal(split.map((instance) => instance.isLocal), [true, false]);
  const fromB = await b.instances();
  assert.equal(fromB.map((instance) => [instance.server, instance.isLocal]), [["127.0.0.1:7101", false], ["127.0.0.1:7102", true]]);
  assert.equal([...partitionsOf(split[0]), ...partitionsOf(split[1])].sort(), [0, 1, 2, 3]);

  const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
  await harness.producer.send({ topic: "words", messages: words.map((word) => ({ value: `${word} ${word}` })) });
  await eventually(async () => {
    for (const word of words) {
      const owner = await a.ownerOf("counts", word);
      const app = owner.instance?.server === "127.0.0.1:7101" ? a : b;
      if ((await localCount(app, word)) !== 2) return false;
    }
    return true;
  }, { what: "every word counted twice on its owner", timeoutMs: 20_000 });

  await second.close();
  await eventually(async () => a.state === "RUNNING" && partitionsOf((await a.instances())[0] ?? { assignments: [] }).length === 4, {
    what: "the first instance owning every partition",
    timeoutMs: 20_000,
  });
  for (const word of words) assert.is(await localCount(a, word), 2, word);
  await first.close();
});

test("a processing error under 'fail' puts only that application in ERROR with the error recorded", async () => {
  const failing = {
    name: "Failing",
    version: "1",
    config: { "application.id": "failing" },
    topology: (builder: StreamsBuilder) => {
      builder.stream<string, string>("numbers").mapValues((value) => {
        if (value === "boom") throw new Error("cannot take boom");
        return value;
      }).to("numbers-out");
    },
  };
  const runtime = harness.runtime([failing, new WordCountProvider()]);
  await runtime.start();
  const app = runtime.application("failing")!;
  const other = runtime.application("wordcount")!;
  await eventually(() => app.state === "RUNNING" && other.state === "RUNNING", { what: "both RUNNING", timeoutMs: 20_000 });
  await harness.producer.send({ topic: "numbers", messages: [{ value: "1" }, { value: "boom" }] });
  await eventually(() => app.state === "ERROR", { what: "ERROR", timeoutMs: 15_000 });
  assert.match(app.exception ?? "", /cannot take boom/);
  assert.is(other.state, "RUNNING");
  await app.stop({ timeoutMs: 5_000 });
  assert.is(app.state, "NOT_RUNNING");
  await runtime.close();
});

test.run();
