import fs from "node:fs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ApplicationRegistry } from "../../../kernel/contracts/streams/runtime";
import { STREAMS_RUNTIME_TOKEN } from "../../../kernel/contracts/streams/runtime";
import { eventually } from "../../helpers/eventually";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { LIMITED_QUEUE_SIZE, writeProviderPackage, type BurstRequest } from "./fixture-providers";
import { openSse } from "./sse-reader";

// Each burst sends 4 × the queue size in one go: faster than the stream's queue is delivered.
const COUNT = 4 * LIMITED_QUEUE_SIZE;
const test = suite<{ sluice: SluiceWithExamples; burstPackage: string }>("event stream limit handlers");

test.before(async (context) => {
  context.burstPackage = writeProviderPackage("BurstProvider");
  context.sluice = await startSluiceWithExamples({ "plugins.packages": context.burstPackage });
});

test.after(async ({ sluice, burstPackage }) => {
  await sluice?.close();
  fs.rmSync(burstPackage, { recursive: true, force: true });
});

async function burst(sluice: SluiceWithExamples, request: BurstRequest): Promise<void> {
  await sluice.produce("bursts", [{ key: request.stream, value: JSON.stringify(request) }]);
}

/**
 * Subscribes to `stream`, sends it a burst of COUNT events, waits for `expected` of them, then sends a marker
 * event on its own: whatever else of the burst got through arrives before the marker. Returns those values.
 */
async function deliveredOfBurst(sluice: SluiceWithExamples, stream: string, expected: number): Promise<string[]> {
  const reader = await openSse(`${sluice.url}/api/v1/streams/bursts/subscribe/${stream}`);
  try {
    await burst(sluice, { stream, count: COUNT, size: 1 });
    await reader.waitForEvents(expected);
    await burst(sluice, { stream, count: 1, size: 2 });
    const values = () => reader.events.map((event) => String(event.data.value));
    await eventually(() => values().includes(MARKER), { what: `the marker on ${stream}` });
    return values().slice(0, values().indexOf(MARKER));
  } finally {
    reader.close();
  }
}

const MARKER = "0:xx";
const values = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `${from + i}:x`);

test("drop_head keeps the newest records of a burst larger than the queue", async ({ sluice }) => {
  assert.equal(await deliveredOfBurst(sluice, "drop-head", LIMITED_QUEUE_SIZE), values(COUNT - LIMITED_QUEUE_SIZE, COUNT));
});

test("log_and_continue keeps the records that fitted and drops the rest", async ({ sluice }) => {
  assert.equal(await deliveredOfBurst(sluice, "log-and-continue", LIMITED_QUEUE_SIZE), values(0, LIMITED_QUEUE_SIZE));
});

test("throw fails the topology, which follows its error policy (fail: the application goes to ERROR)", async ({ sluice }) => {
  const application = sluice.kernel.components.resolve<ApplicationRegistry>(STREAMS_RUNTIME_TOKEN).application("bursts")!;
  const reader = await openSse(`${sluice.url}/api/v1/streams/bursts/subscribe/throw`);
  try {
    await burst(sluice, { stream: "throw", count: COUNT, size: 1 });
    await eventually(() => application.state === "ERROR", { what: `bursts in ERROR (state ${application.state})` });
    assert.ok(reader.events.length <= LIMITED_QUEUE_SIZE, `${reader.events.length} events passed a queue of ${LIMITED_QUEUE_SIZE}`);
  } finally {
    reader.close();
  }
});

test.run();
