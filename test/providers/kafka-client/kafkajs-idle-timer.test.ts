import { Kafka, logLevel } from "kafkajs";
import { test } from "uvu";
import * as assert from "uvu/assert";
import "../../../providers/kafka-client/kafkajs-idle-timer";
import { startTestBroker } from "../broker/broker-test-kit";

/** Timers that kafkajs's request queue sets while `during` runs. */
async function queueTimers(during: () => Promise<void>): Promise<number> {
  const original = globalThis.setTimeout;
  let count = 0;
  globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    if (new Error().stack?.includes("requestQueue")) count++;
    return original(callback, ms, ...args);
  }) as typeof setTimeout;
  try {
    await during();
  } finally {
    globalThis.setTimeout = original;
  }
  return count;
}

test("an idle kafkajs connection sets no timers; requests still go out and are answered", async () => {
  const broker = await startTestBroker();
  const admin = new Kafka({ clientId: "idle", brokers: [broker.bootstrap], logLevel: logLevel.NOTHING }).admin();
  try {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: "quiet", numPartitions: 3 }] });
    const idle = await queueTimers(() => new Promise((resolve) => setTimeout(resolve, 200)));
    assert.is(idle, 0, `${idle} request-queue timers in 200 ms of idling`);
    // Many requests at once still all complete.
    const answers = await Promise.all(Array.from({ length: 50 }, () => admin.fetchTopicOffsets("quiet")));
    assert.ok(answers.every((offsets) => offsets.length === 3));
  } finally {
    await admin.disconnect();
    await broker.close();
  }
});

test.run();
