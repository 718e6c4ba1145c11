/**
 * Session windows with emitStrategy(onWindowClose) (#35 point 2) on the embedded broker: moved to an instance with no
 * local state, the sessions not yet emitted come back from the session store's changelog and are emitted once they
 * close; restarted on that state directory, the last emit's close time comes back from its own store, so that sessions
 * already emitted (still in the store: its retention is long) are not emitted again. When and in what order sessions
 * are emitted is proven against Kafka Streams by the golden scenario session-emit-on-window-close.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { EmitStrategy, SessionWindows, type StreamsBuilder, type TopologyProvider } from "../../../index";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("session windows emitted on close, across moves");
let harness: Harness | undefined;

test.after(async () => {
  await harness?.close();
});

const ID = "session-on-close";
/** Event time near now: the session store's changelog is also cleaned up by time (retention + a day). */
const T0 = Date.now();

const app: TopologyProvider = {
  name: ID,
  version: "1.0.0",
  config: { "application.id": ID },
  topology(builder: StreamsBuilder) {
    builder
      .stream<string, string>(`${ID}-in`, { keySerde: "string", valueSerde: "string" })
      .groupByKey()
      .windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5))
      .emitStrategy(EmitStrategy.onWindowClose())
      .count({ storeName: "sessions", retentionMs: 1_000_000 })
      .toStream()
      .to(`${ID}-out`, { valueSerde: "long" });
  },
};

/**
 * Runs the application on `stateDir` (default: a new one) until `done`; the first record sent (at T0 + its time) is
 * the first it processes, so an emit is due then (emits are throttled to one a second).
 */
async function runOnce(records: [string, number][], done: () => Promise<void>, stateDir?: string): Promise<void> {
  const runtime = harness!.runtime([app], { stateDir });
  await runtime.start();
  await eventually(() => runtime.application(ID)?.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  await harness!.producer.send({ topic: `${ID}-in`, acks: -1, messages: records.map(([key, time]) => ({ key, value: "x", timestamp: String(T0 + time) })) });
  await done();
  await runtime.close(5_000);
}

/** The session keys emitted so far, in order (a session key's bytes start with the key: one letter here). */
const emittedKeys = async (until: (keys: string[]) => boolean) =>
  (await harness!.readTopic(`${ID}-out`, (records) => until(records.map((record) => record.key!.slice(0, 1))))).map((record) => record.key!.slice(0, 1));

test("sessions are restored and emitted once each, none twice", async () => {
  harness = await startHarness();
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [`${ID}-in`, `${ID}-out`].map((topic) => ({ topic, numPartitions: 1 })), waitForLeaders: true });
  await admin.disconnect();

  // Nothing closes yet (stream time 14, minus gap and grace: -1).
  await runOnce([["a", 0], ["b", 7], ["c", 14]], async () => {
    await harness!.readTopic(`${ID}-sessions-changelog`, (records) => records.length >= 3);
  });
  // d at 50 closes the sessions that end before 35: all three, restored from the changelog.
  const stateDir = harness.stateDir();
  await runOnce([["d", 50]], async () => {
    assert.equal(await emittedKeys((keys) => keys.length >= 3), ["a", "b", "c"]);
  }, stateDir);
  // f at 100 closes d's session; a, b and c, still stored, were emitted before the last emit's close time (35).
  await runOnce([["f", 100]], async () => {
    assert.equal(await emittedKeys((keys) => keys.includes("d")), ["a", "b", "c", "d"]);
  }, stateDir);
});

test.run();
