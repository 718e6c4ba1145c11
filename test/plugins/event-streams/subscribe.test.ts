import fs from "node:fs";
import { EventSource } from "eventsource";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ApplicationRegistry } from "../../../kernel/contracts/streams/runtime";
import { STREAMS_RUNTIME_TOKEN } from "../../../kernel/contracts/streams/runtime";
import { eventually } from "../../helpers/eventually";
import { sampleValue } from "../../helpers/prometheus-text";
import { http } from "../../helpers/sluice";
import { EXAMPLES_PACKAGE, startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { writeProviderPackage, type BurstRequest } from "./fixture-providers";
import { openSse, openStalledSubscriber, type SseEvent } from "./sse-reader";

const BUFFER_SIZE = 100;
const test = suite<{ sluice: SluiceWithExamples; burstPackage: string; stream: string; firehose: string }>("event streams over SSE");

test.before(async (context) => {
  context.burstPackage = writeProviderPackage("BurstProvider");
  context.sluice = await startSluiceWithExamples({
    "plugins.packages": `${EXAMPLES_PACKAGE},${context.burstPackage}`,
    "server.sse.keepalive.ms": "100",
    "server.sse.buffer.size": String(BUFFER_SIZE),
    // These tests follow every count update through the transport: without the record cache each one is an event.
    "streams.statestore.cache.max.bytes": "0",
  });
  context.stream = `${context.sluice.url}/api/v1/streams/wordcount/subscribe/word-counts`;
  context.firehose = `${context.sluice.url}/api/v1/streams/bursts/subscribe/firehose`;
});

test.after(async ({ sluice, burstPackage }) => {
  await sluice?.close();
  fs.rmSync(burstPackage, { recursive: true, force: true });
});

const burst = (sluice: SluiceWithExamples, request: BurstRequest) => sluice.produce("bursts", [{ key: request.stream, value: JSON.stringify(request) }]);

/** Receives the library's events of the wordcount stream. */
async function librarySubscriber(url: string): Promise<{ source: EventSource; events: { id: string; data: any }[] }> {
  const source = new EventSource(url);
  const events: { id: string; data: any }[] = [];
  source.addEventListener("word-counts", (message) => events.push({ id: message.lastEventId, data: JSON.parse(message.data) }));
  await new Promise<void>((resolve, reject) => {
    source.addEventListener("open", () => resolve());
    source.addEventListener("error", (error) => reject(error));
  });
  return { source, events };
}

const keysAndCounts = (events: { data: SseEvent["data"] }[]) => events.map(({ data }) => [data.key, data.value]);

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

test("an unknown application or event type is a 404 JSON error before any event", async ({ sluice }) => {
  for (const [path, message] of [
    ["/api/v1/streams/nope/subscribe/word-counts", "Unknown application 'nope'"],
    ["/api/v1/streams/wordcount/subscribe/nope", "Application 'wordcount' has no event stream 'nope'"],
  ]) {
    const response = await http(`${sluice.url}${path}`);
    assert.is(response.status, 404);
    assert.match(response.headers.get("content-type") ?? "", "application/json");
    assert.equal(response.json(), { error_code: 404, message, path });
  }
});

test("the stream opens with retry and frames each record as id, event and JSON data", async ({ sluice, stream }) => {
  const reader = await openSse(stream);
  try {
    assert.is(reader.status, 200);
    assert.is(reader.headers["content-type"], "text/event-stream; charset=utf-8");
    assert.is(reader.headers["cache-control"], "no-cache");
    await sluice.produce("words", [{ value: "framing", timestamp: "1700000000000" }]);
    await reader.waitForEvents(1);
    assert.ok(reader.text().startsWith("retry: 3000\n\n"), reader.text());
    const id = reader.events[0].id;
    assert.match(id, /^[1-9]\d*$/);
    assert.ok(reader.text().includes(`\n\nid: ${id}\nevent: word-counts\ndata: {"key":"framing","value":1,"timestamp":1700000000000}\n\n`), reader.text());
  } finally {
    reader.close();
  }
});

test("the wordcount stream delivers each count update to an EventSource client, ids increasing", async ({ sluice, stream }) => {
  const { source, events } = await librarySubscriber(stream);
  try {
    await sluice.produce("words", [{ value: "Apple banana apple" }, { value: "apple" }]);
    await eventually(() => events.length >= 4, { what: "four count updates" });
    assert.equal(keysAndCounts(events), [["apple", 1], ["banana", 1], ["apple", 2], ["apple", 3]]);
    const ids = events.map((event) => Number(event.id));
    assert.equal(ids, ids.map((_, i) => ids[0] + i));
  } finally {
    source.close();
  }
});

test("two subscribers both get every record", async ({ sluice, stream }) => {
  const library = await librarySubscriber(stream);
  const raw = await openSse(stream);
  try {
    const words = Array.from({ length: 100 }, (_, i) => `both${i % 10}`);
    await sluice.produce("words", [{ value: words.slice(0, 50).join(" ") }, { value: words.slice(50).join(" ") }]);
    await raw.waitForEvents(100);
    await eventually(() => library.events.length >= 100, { what: "100 events at the EventSource client" });
    const expected = words.map((word, i) => [word, Math.floor(i / 10) + 1]);
    assert.equal(keysAndCounts(raw.events), expected);
    assert.equal(keysAndCounts(library.events), expected);
    assert.equal(library.events.map((event) => event.id), raw.events.map((event) => event.id));
  } finally {
    library.source.close();
    raw.close();
  }
});

test("a reconnect with Last-Event-ID receives the missed records still kept, then the live stream, without gaps", async ({ sluice, stream }) => {
  const watcher = await openSse(stream);
  const first = await openSse(stream);
  try {
    await sluice.produce("words", [{ value: "resumea resumeb" }]);
    const [, last] = await first.waitForEvents(2);
    first.close();
    await sluice.produce("words", [{ value: "resumec resumed" }]);
    await watcher.waitForEvents(4);

    const resumed = await openSse(stream, { "Last-Event-ID": last.id });
    await resumed.waitForEvents(2);
    await sluice.produce("words", [{ value: "resumee" }]);
    await resumed.waitForEvents(3);
    assert.equal(resumed.events.map((event) => event.data.key), ["resumec", "resumed", "resumee"]);
    assert.equal(resumed.events.map((event) => Number(event.id)), [1, 2, 3].map((i) => Number(last.id) + i));
    resumed.close();
  } finally {
    watcher.close();
    first.close();
  }
});

test("idle streams get keep-alive comments", async ({ stream }) => {
  const reader = await openSse(stream);
  try {
    await eventually(() => reader.comments.length >= 2, { what: "two keep-alive comments" });
    assert.equal(reader.comments.slice(0, 2), ["keep-alive", "keep-alive"]);
    assert.is(reader.events.length, 0);
  } finally {
    reader.close();
  }
});

test("a subscriber that keeps up gets every record of a burst ten times its buffer", async ({ sluice, firehose }) => {
  const reader = await openSse(firehose);
  try {
    await burst(sluice, { stream: "firehose", count: 10 * BUFFER_SIZE, size: 500 });
    const values = (await reader.waitForEvents(10 * BUFFER_SIZE)).map((event) => String(event.data.value).split(":")[0]);
    assert.equal(values, Array.from({ length: 10 * BUFFER_SIZE }, (_, i) => String(i)));
  } finally {
    reader.close();
  }
});

test("a stalled subscriber does not delay another one, and loses its own oldest records, counted in /metrics", async ({ sluice, firehose }) => {
  const figure = async (name: string) => sampleValue((await http(`${sluice.url}/metrics`)).text, name, { application: "bursts", stream: "firehose" });
  const droppedBefore = (await figure("sluice_sse_dropped_events_total")) ?? 0;
  const stalled = await openStalledSubscriber(firehose);
  const live = await openSse(firehose);
  try {
    assert.is(await figure("sluice_sse_subscribers"), 2);
    // About 13 MB of frames, more than the socket buffers of a loopback connection hold (about 4 MB); bursts of
    // at most BUFFER_SIZE events, each once the live subscriber has the previous one, so it keeps up.
    const rounds = 8;
    const stallStarted = Date.now();
    for (let round = 1; round <= rounds; round++) {
      await burst(sluice, { stream: "firehose", count: BUFFER_SIZE, size: 16_000 });
      await live.waitForEvents(round * BUFFER_SIZE);
    }
    const stallMs = Date.now() - stallStarted;
    const ids = live.events.map((event) => Number(event.id));
    assert.equal(ids, ids.map((_, i) => ids[0] + i), "the live subscriber missed records");
    const latencies = live.events.map((event) => event.receivedAt - event.data.timestamp).sort((a, b) => a - b);
    const p99 = percentile(latencies, 99);
    // Measured: every record reached the live subscriber while the stalled one had not read a byte.
    assert.ok(p99 < stallMs, `live p50 ${percentile(latencies, 50)} ms, p99 ${p99} ms, stall ${stallMs} ms`);

    stalled.resume();
    await burst(sluice, { stream: "firehose", count: 1, size: 1 });
    const lastId = Number((await live.waitForEvents(rounds * BUFFER_SIZE + 1)).at(-1)!.id);
    const received = await eventually(() => stalled.ids().at(-1) === lastId && stalled.ids(), { what: "the stalled subscriber to catch up" });
    assert.ok(received.length < rounds * BUFFER_SIZE, `the stalled subscriber received all ${received.length} records: nothing bounded it`);
    const tail = received.slice(-BUFFER_SIZE);
    assert.equal(tail, tail.map((_, i) => lastId - BUFFER_SIZE + 1 + i), "after its loss it has the newest records, in order");
    const lost = rounds * BUFFER_SIZE + 1 - received.length;
    assert.is((await figure("sluice_sse_dropped_events_total"))! - droppedBefore, lost);
    stalled.close();
    live.close();
    await eventually(async () => (await figure("sluice_sse_subscribers")) === 0, { what: "both subscribers to be gone" });
    assert.is((await figure("sluice_sse_dropped_events_total"))! - droppedBefore, lost, "the loss stays counted after the subscriber left");
  } finally {
    stalled.close();
    live.close();
  }
});

test("stopping the application ends its open streams", async ({ sluice, stream }) => {
  const readers = [await openSse(stream), await openSse(stream)];
  const application = sluice.kernel.components.resolve<ApplicationRegistry>(STREAMS_RUNTIME_TOKEN).application("wordcount")!;
  await application.stop();
  await eventually(() => readers.every((reader) => reader.ended), { what: "both streams to end" });
  readers.forEach((reader) => reader.close());
});

test.run();
