/**
 * A store with logging disabled on the embedded broker (#35 point 7): no changelog topic; the store keeps its
 * content where the task's local state is current (a restart on the same state directory), and starts empty where
 * it is not (the task moved to an empty state directory, or back to one another member has since overtaken), while
 * a logged store beside it comes back from its changelog every time.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { KeyValueStore } from "../../../kernel/contracts/streams/stores";
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { Stores } from "../../../providers/streams/processor/stores";
import { eventually } from "../../helpers/eventually";
import { processorOf } from "../../helpers/processors";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("stores without changelogs on Kafka");
const ID = "unlogged";
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

/** Counts each key's records in a logged and an unlogged store, writing "<key>=<logged>/<unlogged>". */
const countingApp: TopologyProvider = {
  name: ID,
  version: "1.0.0",
  config: { "application.id": ID, "default.key.serde": "string", "default.value.serde": "string" },
  topology(builder: StreamsBuilder) {
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("logged"), "string", "long"));
    builder.addStateStore(Stores.keyValueStoreBuilder(Stores.persistentKeyValueStore("unlogged"), "string", "long").withLoggingDisabled());
    builder
      .stream<string, string>(`${ID}-in`)
      .process(
        processorOf<string, string, string, string>((record, context) => {
          const counts = ["logged", "unlogged"].map((name) => {
            const store = context.getStateStore<KeyValueStore<string, number>>(name);
            const count = (store.get(record.key) ?? 0) + 1;
            store.put(record.key, count);
            return count;
          });
          context.forward(record.withValue(`${record.key}=${counts.join("/")}`));
        }),
        ["logged", "unlogged"],
      )
      .to(`${ID}-out`);
  },
};

async function runOnce(stateDir: string, expected: string): Promise<void> {
  const runtime = harness.runtime([countingApp], { stateDir });
  await runtime.start();
  const app = runtime.application(ID)!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  await harness.producer.send({ topic: `${ID}-in`, messages: [{ key: "k", value: expected }] });
  await harness.readTopic(`${ID}-out`, (records) => records.some((record) => record.value?.toString() === expected));
  await runtime.close(5_000);
}

test("an unlogged store has no changelog, keeps its content on a restart in place and starts empty after a move; the logged store beside it is restored", async () => {
  const first = harness.stateDir();
  await runOnce(first, "k=1/1");
  await runOnce(first, "k=2/2");
  // The task moves to an empty state directory: only the logged count comes back.
  await runOnce(harness.stateDir(), "k=3/1");
  // Back to the first directory, whose local state the group's offsets have passed: its unlogged count is stale.
  await runOnce(first, "k=4/1");
  const admin = harness.kafka.admin();
  await admin.connect();
  const topics = await admin.listTopics();
  await admin.disconnect();
  assert.equal(topics.filter((topic) => topic.startsWith(`${ID}-`)).sort(), [`${ID}-in`, `${ID}-logged-changelog`, `${ID}-out`]);
});

test.run();
