import type { Producer } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { applicationConfig, rebalanceProtocolOf } from "../../../providers/streams/streams-config";
import { startTestBroker, type TestBroker } from "../broker/broker-test-kit";
import { eventually } from "../../helpers/eventually";
import { aThirdMemberJoinsCooperatively, PARTITIONS, produceUntil, topology, WordcountGroup, wordcountConfig } from "./wordcount-group";

const test = suite("streams: cooperative rebalancing of the group consumer (KIP-429)");

let broker: TestBroker;
let producer: Producer;
let group: WordcountGroup;
let groups = 0;

test.before.each(async () => {
  broker = await startTestBroker({ autoCreateTopics: false });
  const admin = broker.kafka().admin();
  await admin.connect();
  await admin.createTopics({ topics: topology.sourceTopics().map((topic) => ({ topic, numPartitions: PARTITIONS })) });
  await admin.disconnect();
  producer = broker.kafka().producer();
  await producer.connect();
  group = new WordcountGroup([broker.bootstrap], `cooperative-${++groups}`);
});

test.after.each(async () => {
  await group.stop();
  await producer.disconnect();
  await broker.close();
});

test("a member joining takes tasks only once their owner gave them up; the others keep theirs and go on processing", async () => {
  await aThirdMemberJoinsCooperatively(group, producer);
});

test("eager: every member gives everything up and processes nothing while it joins", async () => {
  const first = await group.join("a", "eager");
  await group.join("c", "eager", 2_000);
  await group.settled(2 * PARTITIONS);
  first.processedWhileJoining = 0;
  const revocationsBefore = first.revocations;
  const balanced = group.join("b", "eager").then((second) => eventually(() => second.tasks.size > 0 && group.members.every((member) => !member.consumer.rejoinPending), { what: "b holding tasks", timeoutMs: 30_000 }));
  await produceUntil(producer, balanced);
  assert.is(first.processedWhileJoining, 0);
  assert.ok(first.revocations > revocationsBefore);
  await group.settled(2 * PARTITIONS);
});

test("the protocol follows upgrade.from as in Kafka Streams: eager when upgrading from before 2.4", () => {
  const protocolOf = (values: Record<string, string>) => rebalanceProtocolOf(applicationConfig([{ values: { ...wordcountConfig, ...values }, source: "the test" }]).settings);
  assert.is(protocolOf({}), "cooperative");
  assert.is(protocolOf({ "upgrade.from": "2.3" }), "eager");
  assert.is(protocolOf({ "upgrade.from": "0.10.0" }), "eager");
  assert.is(protocolOf({ "upgrade.from": "2.4" }), "cooperative");
  assert.throws(() => protocolOf({ "upgrade.from": "2.3.1" }), /upgrade\.from/);
});

test.run();
