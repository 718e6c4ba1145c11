/**
 * Joined topics are co-partitioned (issue #34 item 6): a stream joined to a table of another number of partitions is
 * a startup error naming both, unless the stream goes through a repartition topic — a re-keyed stream always does —
 * which then gets the table's number of partitions, so every record meets its key's row.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { eventually } from "../../helpers/eventually";
import { startHarness, type Harness } from "./streams-harness";

const test = suite("co-partitioned joins on the embedded broker");
let harness: Harness;

test.before(async () => {
  harness = await startHarness();
});
test.after(async () => {
  await harness.close();
});

function provider(applicationId: string, topology: (builder: StreamsBuilder) => void): TopologyProvider {
  return { name: applicationId, version: "1", config: { "application.id": applicationId }, topology };
}

async function createTopics(topics: Record<string, number>): Promise<void> {
  const admin = harness.kafka.admin();
  await admin.connect();
  await admin.createTopics({ waitForLeaders: true, topics: Object.entries(topics).map(([topic, numPartitions]) => ({ topic, numPartitions })) });
  await admin.disconnect();
}

async function partitionsOf(topic: string): Promise<number> {
  const admin = harness.kafka.admin();
  await admin.connect();
  const [metadata] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
  await admin.disconnect();
  return metadata.partitions.length;
}

test("a stream joined to a table of another number of partitions stops the application naming the topics", async () => {
  await createTopics({ "clicks-3": 3, "users-2": 2 });
  const runtime = harness.runtime([
    provider("unmatched", (builder) => {
      const users = builder.table<string, string>("users-2");
      builder.stream<string, string>("clicks-3").join(users, (click, user) => `${user}@${click}`).to("unmatched-out");
    }),
  ]);
  await runtime.start();
  const app = runtime.application("unmatched")!;
  await eventually(() => app.state === "ERROR", { what: "ERROR", timeoutMs: 15_000 });
  assert.is(
    app.exception,
    "Error: topics users-2 (2), clicks-3 (3) must have the same number of partitions: they are joined partition by partition " +
      "(store 'users-2' is used by processors 'table-1' and 'join-3', so they run in one task); create them alike, or repartition the input",
  );
});

test("a re-keyed stream's repartition topic takes the table's number of partitions: every left join finds its row", async () => {
  await createTopics({ "visits-3": 3, "members-2": 2 });
  await harness.producer.send({ topic: "members-2", messages: ["u1", "u2", "u3", "u4"].map((user) => ({ key: user, value: user.toUpperCase() })) });
  const runtime = harness.runtime([
    provider("rekeyed", (builder) => {
      const members = builder.table<string, string>("members-2");
      builder
        .stream<string, string>("visits-3")
        .selectKey((_key, value) => value.split(":")[0])
        .leftJoin(members, (visit, member) => `${member ?? "?"}@${visit.split(":")[1]}`, "join-members")
        .to("rekeyed-out");
    }),
  ]);
  await runtime.start();
  const app = runtime.application("rekeyed")!;
  await eventually(() => app.state === "RUNNING", { what: "RUNNING", timeoutMs: 15_000 });
  assert.is(await partitionsOf("rekeyed-join-members-repartition"), 2);
  const visits = Array.from({ length: 16 }, (_, i) => ({ key: `v${i}`, value: `u${(i % 4) + 1}:page${i}` }));
  await harness.producer.send({ topic: "visits-3", messages: visits });
  const joined = await harness.readTopic("rekeyed-out", (records) => records.length >= visits.length);
  assert.is(joined.length, visits.length);
  assert.equal(joined.filter((record) => record.value!.toString().startsWith("?")), [], "no visit missed its member");
  await runtime.close();
});

test.run();
