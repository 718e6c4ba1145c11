/**
 * A task with two input partitions on the embedded broker (#35 point 1): it processes their records in timestamp
 * order across the partitions, waits up to `max.task.idle.ms` for an empty partition, and commits each partition's
 * offset with Kafka Streams' offset metadata holding the partition time.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { decodeOffsetMetadata } from "../../../providers/streams/kafka/processing/offset-metadata";
import { eventually } from "../../helpers/eventually";
import { processorOf } from "../../helpers/processors";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("timestamp-ordered tasks on Kafka");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

/**
 * An application merging `<id>-left` and `<id>-right`; `seen` gets "<value>@<timestamp>" in the order processed,
 * `processedAt` each value's wall-clock time of processing.
 */
function mergeApp(id: string, maxTaskIdleMs: number, seen: string[], processedAt = new Map<string, number>()): TopologyProvider {
  return {
    name: id,
    version: "1.0.0",
    config: { "application.id": id, "default.key.serde": "string", "default.value.serde": "string", "max.task.idle.ms": maxTaskIdleMs },
    topology(builder: StreamsBuilder) {
      builder
        .stream<string, string>(`${id}-left`)
        .merge(builder.stream<string, string>(`${id}-right`))
        .process(
          processorOf<string, string, string, string>((record, context) => {
            seen.push(`${record.value}@${record.timestamp}`);
            processedAt.set(record.value, Date.now());
            context.forward(record);
          }),
        )
        .to(`${id}-out`);
    },
  };
}

async function createTopics(id: string): Promise<void> {
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: ["left", "right", "out"].map((name) => ({ topic: `${id}-${name}`, numPartitions: 1 })) });
  await admin.disconnect();
}

async function send(topic: string, records: [string, number][]): Promise<void> {
  await harness.producer.send({ topic, messages: records.map(([value, timestamp]) => ({ key: value, value, timestamp: String(timestamp) })) });
}

test("records already on both partitions are processed in timestamp order, and each offset is committed with its partition time", async () => {
  const seen: string[] = [];
  await createTopics("ordered");
  await send("ordered-left", [["l1", 10], ["l2", 30], ["l3", 50]]);
  await send("ordered-right", [["r1", 20], ["r2", 40]]);
  const runtime = harness.runtime([mergeApp("ordered", 0, seen)]);
  await runtime.start();
  await eventually(() => seen.length === 5, { what: "all five records processed", timeoutMs: 20_000 });
  assert.equal(seen, ["l1@10", "r1@20", "l2@30", "r2@40", "l3@50"]);

  const admin = harness.kafka.admin();
  await admin.connect();
  try {
    const committedTimes = async () => {
      const topics = await admin.fetchOffsets({ groupId: "ordered", topics: ["ordered-left", "ordered-right"] });
      return Object.fromEntries(topics.map(({ topic, partitions }) => [topic, `${partitions[0].offset}/${decodeOffsetMetadata(partitions[0].metadata)}`]));
    };
    await eventually(async () => JSON.stringify(await committedTimes()) === JSON.stringify({ "ordered-left": "3/50", "ordered-right": "2/40" }), {
      what: "offsets committed with Kafka Streams' partition-time metadata",
      timeoutMs: 20_000,
    });
  } finally {
    await admin.disconnect();
  }
});

test("a record waits up to max.task.idle.ms for the empty partition: a later-sent record of the other comes first, and once that partition is empty again the wait starts over", async () => {
  const seen: string[] = [];
  const processedAt = new Map<string, number>();
  const idleMs = 3_000;
  await createTopics("idle");
  const runtime = harness.runtime([mergeApp("idle", idleMs, seen, processedAt)]);
  await runtime.start();
  const app = runtime.application("idle")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });

  await send("idle-left", [["late", 100]]);
  const earlySent = Date.now();
  await send("idle-right", [["early", 50]]);
  await eventually(() => seen.length === 2, { what: "both records processed", timeoutMs: 20_000 });
  assert.equal(seen, ["early@50", "late@100"], "the left record waited for the right partition");
  // The right partition was fetched empty again after its record: the left one waited max.task.idle.ms for it.
  const waited = processedAt.get("late")! - earlySent;
  assert.ok(waited >= idleMs, `the left record went ${waited} ms after the right one was sent, before max.task.idle.ms (${idleMs}) passed`);
});

test.run();
