/** What the record cache changes end to end: wordcount's output topic gets folded counts, or with 0 bytes one per word. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../providers/examples";
import { eventually } from "../../helpers/eventually";
import { startHarness } from "./streams-harness";
import { rowValue } from "../../helpers/table-rows";

const WORDS = 1_000;

/** Runs wordcount with `cacheBytes` over 200 lines of "x x x x x" sent at once; returns the output records of `x`. */
async function outputsOfX(cacheBytes: number): Promise<number[]> {
  const harness = await startHarness();
  try {
    await harness.kafka.admin().createTopics({ topics: [{ topic: "words", numPartitions: 1 }] }).catch(() => undefined);
    const runtime = harness.runtime([new WordCountProvider()], { config: { "statestore.cache.max.bytes": cacheBytes, "num.partitions": 1 } });
    await runtime.start();
    try {
      const app = runtime.application("wordcount")!;
      await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
      await harness.producer.send({ topic: "words", messages: Array.from({ length: WORDS / 5 }, () => ({ value: "x x x x x" })) });
      const store = app.store("counts")!;
      await eventually(async () => (await rowValue(store.readOnly(0), "x")) === WORDS, { what: "x counted", timeoutMs: 15_000 });
      const output = await harness.readTopic("word-counts", (records) => records.some((record) => Number(record.value!.readBigInt64BE()) === WORDS));
      return output.map((record) => Number(record.value!.readBigInt64BE()));
    } finally {
      await runtime.close();
    }
  } finally {
    await harness.close();
  }
}

test("with the record cache, a commit's updates of one word reach the output topic folded, ending at the true count", async () => {
  const counts = await outputsOfX(10_485_760);
  assert.ok(counts.length < WORDS / 10, `${counts.length} output records for ${WORDS} updates`);
  assert.equal(counts, [...counts].sort((a, b) => a - b), "folded counts still arrive in order");
  assert.is(counts.at(-1), WORDS);
});

test("with statestore.cache.max.bytes=0, every update reaches the output topic", async () => {
  const counts = await outputsOfX(0);
  assert.equal(counts, Array.from({ length: WORDS }, (_, i) => i + 1));
});

test.run();
