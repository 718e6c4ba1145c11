import { suite } from "uvu";
import * as assert from "uvu/assert";
import type {
  ReadOnlyKeyValueStore,
  ReadOnlySessionStore,
  ReadOnlyWindowStore,
  ValueAndTimestamp,
} from "../../../kernel/contracts/streams/stores";
import type { ApplicationHandle } from "../../../kernel/contracts/streams/runtime";
import { LatestReadingsProvider, PageViewsProvider, SessionsProvider, WordCountProvider, startExampleFeeder } from "../../../providers/examples";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "../streams/streams-harness";

const test = suite("example applications on the embedded broker");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

async function gather<T>(app: ApplicationHandle, store: string, read: (store: unknown) => AsyncIterable<T>): Promise<T[]> {
  const handle = app.store(store)!;
  const out: T[] = [];
  for (const partition of handle.localPartitions()) for await (const item of read(handle.readOnly(partition)!.store)) out.push(item);
  return out;
}

test("pageviews, sessions and latest fill their window, session and timestamped stores", async () => {
  const runtime = harness.runtime([new PageViewsProvider(), new SessionsProvider(), new LatestReadingsProvider()]);
  await runtime.start();
  const [pageviews, sessions, latest] = ["pageviews", "sessions", "latest"].map((id) => runtime.application(id)!);
  await eventually(() => [pageviews, sessions, latest].every((app) => app.state === "RUNNING"), { what: "RUNNING", timeoutMs: 20_000 });
  const minute = 60_000;
  await harness.producer.sendBatch({
    topicMessages: [
      {
        topic: "pageviews",
        messages: [
          { key: "ann", value: JSON.stringify({ user: "ann", page: "/docs" }), timestamp: String(10 * minute + 1) },
          { key: "bob", value: JSON.stringify({ user: "bob", page: "/docs" }), timestamp: String(10 * minute + 2) },
          { key: "ann", value: JSON.stringify({ user: "ann", page: "/docs" }), timestamp: String(11 * minute + 5) },
        ],
      },
      {
        topic: "clicks",
        messages: [
          { key: "ann", value: "/", timestamp: String(0) },
          { key: "ann", value: "/a", timestamp: String(4 * minute) },
          { key: "ann", value: "/b", timestamp: String(20 * minute) },
        ],
      },
      {
        topic: "readings",
        messages: [
          { key: "s1", value: JSON.stringify({ celsius: 20 }), timestamp: String(1_000) },
          { key: "s1", value: JSON.stringify({ celsius: 21 }), timestamp: String(2_000) },
        ],
      },
    ],
  });
  await eventually(async () => {
    const windows = await gather(pageviews, "views-per-minute", (s) => (s as ReadOnlyWindowStore<string, number>).fetchAll(0, 60 * minute));
    return windows.length === 2 && windows;
  }, { what: "page view windows", timeoutMs: 15_000 }).then((windows) => {
    assert.equal(windows.map((w) => [w.key, w.windowStart, w.value]).sort(), [["/docs", 10 * minute, 2], ["/docs", 11 * minute, 1]]);
  });
  const userSessions = await eventually(async () => {
    const found = await gather(sessions, "user-sessions", (s) => (s as ReadOnlySessionStore<string, number>).fetch("ann"));
    return found.length === 2 && found;
  }, { what: "two sessions", timeoutMs: 15_000 });
  assert.equal(userSessions.map((s) => [s.windowStart, s.windowEnd, s.value]), [[0, 4 * minute, 2], [20 * minute, 20 * minute, 1]]);
  const reading = await eventually(async () => {
    const handle = latest.store("latest-readings")!;
    assert.is(handle.type, "timestamped_key_value");
    const owner = await latest.ownerOf("latest-readings", "s1");
    const store = handle.readOnly(owner.partition)?.store as ReadOnlyKeyValueStore<string, ValueAndTimestamp<unknown>> | undefined;
    const value = await store?.get("s1");
    return value?.timestamp === 2_000 && value;
  }, { what: "latest reading", timeoutMs: 15_000 });
  assert.equal(reading.value, { celsius: 21 });
  await runtime.close();
});

test("the feeder gives wordcount live numbers", async () => {
  const runtime = harness.runtime([new WordCountProvider()]);
  await runtime.start();
  const app = runtime.application("wordcount")!;
  const events: unknown[] = [];
  app.eventHub().subscribe("word-counts", (record) => events.push(record));
  const feeder = await startExampleFeeder({ bootstrapServers: harness.bootstrap, intervalMs: 50 });
  await eventually(() => events.length > 20, { what: "word-count events", timeoutMs: 20_000 });
  await feeder.stop();
  await runtime.close();
});

test.run();
