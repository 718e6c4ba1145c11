import { suite } from "uvu";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../providers/examples";
import { ClusterAdmin, GroupConsumer } from "../../../providers/kafka-client";
import { GroupInstances } from "../../../providers/streams/kafka/assignment/group-instances";
import { streamsAssignor } from "../../../providers/streams/kafka/assignment/streams-assignor";
import { applicationConfig } from "../../../providers/streams/streams-config";
import { buildTopology } from "../../../providers/streams/engine/build-topology";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";
import { eventually } from "../../helpers/eventually";

const test = suite("streams: the instances of an application, from its group");

const wordcount = new WordCountProvider();
const topology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));
let broker: TestBroker;
let admin: ClusterAdmin;
let describes = 0;
const members: GroupConsumer[] = [];

/** The admin client, counting the DescribeGroups it sends. */
const countingAdmin = () =>
  new Proxy(admin, {
    get: (target, property) =>
      property === "describeGroup"
        ? (...args: Parameters<ClusterAdmin["describeGroup"]>) => {
            describes++;
            return target.describeGroup(...args);
          }
        : Reflect.get(target, property),
  });

test.before(async () => {
  broker = await startTestBroker({ autoCreateTopics: false });
  admin = new ClusterAdmin({ bootstrapServers: [broker.bootstrap], clientId: "group-instances-test" });
  await admin.createTopics(topology.sourceTopics().map((name) => ({ name, partitions: 2, replicationFactor: -1 })));
});

test.after(async () => {
  await Promise.all(members.map((member) => member.stop()));
  admin.close();
  await broker.close();
});

async function join(server: string): Promise<{ consumer: GroupConsumer; assigned: () => number }> {
  let assignments = 0;
  const consumer = new GroupConsumer(
    { bootstrapServers: [broker.bootstrap], clientId: server, groupId: "wordcount", assignor: streamsAssignor(topology, server), heartbeatIntervalMs: 100, maxWaitMs: 50 },
    { rebalancing: () => {}, assigned: async () => void assignments++, batch: async () => {}, failed: () => {} },
  );
  members.push(consumer);
  await consumer.start();
  return { consumer, assigned: () => assignments };
}

const summary = (instances: Awaited<ReturnType<GroupInstances["list"]>>) =>
  instances.map((instance) => ({ server: instance.server, local: instance.isLocal, stores: instance.stores, words: instance.assignments.find((entry) => entry.topic === "words")?.partitions }));

test("a Stable listing is kept until this member joins another generation", async () => {
  const listing = new GroupInstances("wordcount", topology);
  const first = await join("127.0.0.1:7201");
  await eventually(() => first.assigned() > 0, { what: "the first member's assignment" });
  const alone = summary(await listing.list(first.consumer, countingAdmin()));
  assert.equal(alone, [{ server: "127.0.0.1:7201", local: true, stores: ["counts"], words: [0, 1] }]);
  const asked = describes;
  assert.equal(summary(await listing.list(first.consumer, countingAdmin())), alone);
  assert.is(describes, asked, "the second listing in the same generation asks the coordinator again");

  const generation = first.consumer.generationId;
  const second = await join("127.0.0.1:7202");
  await eventually(() => second.assigned() > 0 && first.consumer.generationId > generation, { what: "both members in a new generation" });
  const both = await eventually(
    async () => {
      const seen = summary(await listing.list(first.consumer, countingAdmin()));
      return seen.length === 2 && seen.every((instance) => instance.words?.length === 1) && seen;
    },
    { what: "the listing showing both members with a partition each" },
  );
  assert.equal(both.map((instance) => [instance.server, instance.local]), [["127.0.0.1:7201", true], ["127.0.0.1:7202", false]]);
  assert.ok(describes > asked);

  // The other member's own view: its member id differs, so it is never handed the first member's listing.
  const fromSecond = summary(await listing.list(second.consumer, countingAdmin()));
  assert.equal(fromSecond.map((instance) => [instance.server, instance.local]), [["127.0.0.1:7201", false], ["127.0.0.1:7202", true]]);
});

test.run();
