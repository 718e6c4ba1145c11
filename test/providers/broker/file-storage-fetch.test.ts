/** Fetches from the file store, whose reads go ahead of the consumer and reuse the memory of written responses. */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { startTestBroker } from "./broker-test-kit";

const test = suite("broker: fetching from the file store");

test("a consumer reading megabytes of large batches gets every value intact, in order", async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "sluice-fetch-"));
  const broker = await startTestBroker({ storage: "file", dataDir, segmentBytes: 3 * 1024 * 1024 });
  try {
    const kafka = broker.kafka();
    const producer = kafka.producer();
    await producer.connect();
    // Each value its own batch of 150 KiB, filled with its number: a read into memory still in use would mix them.
    const count = 60;
    for (let i = 0; i < count; i++) await producer.send({ topic: "large", messages: [{ value: Buffer.alloc(150 * 1024, i) }] });
    const consumer = kafka.consumer({ groupId: "large-reader", maxBytesPerPartition: 1024 * 1024 });
    await consumer.connect();
    await consumer.subscribe({ topic: "large", fromBeginning: true });
    const seen: number[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => {
        const value = message.value!;
        assert.is(value.length, 150 * 1024);
        assert.ok(value.every((byte) => byte === value[0]), `value at offset ${message.offset} is mixed`);
        seen.push(value[0]);
      },
    });
    await eventually(() => seen.length >= count, { what: `${count} values`, timeoutMs: 20_000 });
    assert.equal(seen, Array.from({ length: count }, (_, i) => i));
  } finally {
    await broker.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test.run();
