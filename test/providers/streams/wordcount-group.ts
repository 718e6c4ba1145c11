/**
 * Members of a wordcount group made of Sluice's group consumer with the streams assignor, for tests of cooperative
 * rebalancing (KIP-429) on the embedded broker and on Apache Kafka: each member's tasks are tracked as its
 * assignments leave them, and every hand-over of a task another member still held is recorded.
 */
import type { Producer } from "kafkajs";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../providers/examples";
import { GroupConsumer, type RebalanceProtocol } from "../../../providers/kafka-client";
import { streamsAssignor } from "../../../providers/streams/kafka/assignment/streams-assignor";
import { applicationConfig } from "../../../providers/streams/streams-config";
import { buildTopology } from "../../../providers/streams/engine/build-topology";
import { eventually } from "../../helpers/eventually";

const wordcount = new WordCountProvider();
export const wordcountConfig = wordcount.config;
export const topology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));
/** Partitions of each source topic: eight tasks. */
export const PARTITIONS = 4;
const taskOf = (topic: string, partition: number) => `${topology.subTopologyOfTopic(topic)}_${partition}`;

export interface Member {
  name: string;
  consumer: GroupConsumer;
  /** The tasks the member holds now: as its last assignment left them. */
  tasks: Set<string>;
  assignments: string[][];
  revocations: number;
  /** Batches of records processed while the member's join was under way. */
  processedWhileJoining: number;
  failures: unknown[];
}

export class WordcountGroup {
  readonly members: Member[] = [];
  /** Each time a member was handed a task another member held at that moment. */
  readonly overlaps: string[] = [];

  constructor(
    private readonly bootstrapServers: string[],
    private readonly groupId: string,
    /** Kafka's brokers refuse sessions shorter than group.min.session.timeout.ms (6 s). */
    private readonly sessionTimeoutMs = 10_000,
  ) {}

  async join(name: string, protocol: RebalanceProtocol, heartbeatIntervalMs = 100): Promise<Member> {
    const member: Member = { name, consumer: undefined!, tasks: new Set(), assignments: [], revocations: 0, processedWhileJoining: 0, failures: [] };
    member.consumer = new GroupConsumer(
      {
        bootstrapServers: this.bootstrapServers,
        clientId: name,
        groupId: this.groupId,
        assignor: streamsAssignor(topology, `${name}:1`, 0, undefined, () => ({ previousTasks: [...member.tasks] })),
        rebalanceProtocol: protocol,
        heartbeatIntervalMs,
        sessionTimeoutMs: this.sessionTimeoutMs,
        maxWaitMs: 50,
      },
      {
        rebalancing: () => {},
        revoking: async () => void member.revocations++,
        assigned: async (partitions) => {
          const tasks = new Set(Object.entries(partitions).flatMap(([topic, list]) => list.map((partition) => taskOf(topic, partition))));
          for (const other of this.members) {
            if (other === member) continue;
            for (const task of tasks) if (other.tasks.has(task)) this.overlaps.push(`${task}: given to ${member.name} while ${other.name} held it`);
          }
          member.tasks = tasks;
          member.assignments.push([...tasks].sort());
        },
        batch: async () => {
          if (member.consumer.rebalanceInProgress) member.processedWhileJoining++;
        },
        failed: (error) => void member.failures.push(error),
      },
    );
    this.members.push(member);
    await member.consumer.start();
    return member;
  }

  /** Waits until no member rebalances and they hold `expected` tasks between them. */
  settled(expected: number): Promise<unknown> {
    const quiet = () => this.members.every((member) => member.assignments.length > 0 && !member.consumer.rejoinPending && !member.consumer.rebalanceInProgress);
    return eventually(() => quiet() && this.members.reduce((sum, member) => sum + member.tasks.size, 0) === expected, { what: `${expected} tasks held, the group settled`, timeoutMs: 30_000 });
  }

  stop(): Promise<unknown> {
    return Promise.all(this.members.map((member) => member.consumer.stop()));
  }
}

/** Writes one record to every partition of `words` every few milliseconds until `done` resolves. */
export async function produceUntil(producer: Producer, done: Promise<unknown>): Promise<void> {
  let finished = false;
  void done.finally(() => (finished = true));
  while (!finished) {
    await producer.send({ topic: "words", messages: Array.from({ length: PARTITIONS }, (_, partition) => ({ partition, value: "w" })) });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Two cooperative members, one of them slow to learn of rebalances, hold the eight tasks; a third joins under a steady
 * feed. It gets only its share, each task once its owner gave it up; the others keep the rest and process batches
 * while they join.
 */
export async function aThirdMemberJoinsCooperatively(group: WordcountGroup, producer: Producer): Promise<void> {
  const first = await group.join("a", "cooperative");
  // A member that learns of rebalances late keeps each one open for a few seconds.
  const late = await group.join("c", "cooperative", 2_000);
  await group.settled(2 * PARTITIONS);
  const before = new Map(group.members.map((member) => [member.name, new Set(member.tasks)]));
  first.processedWhileJoining = 0;
  const balanced = group.join("b", "cooperative").then(async (second) => {
    // The share b gets comes in rounds (a cooperative member gives tasks up, then they are assigned), and the late
    // member starts its round only when it hears of the rebalance: the group is settled once the tasks are spread.
    const spread = () => group.members.map((member) => member.tasks.size).sort().join("/") === "2/3/3";
    await eventually(() => spread() && group.members.every((member) => !member.consumer.rebalanceInProgress && !member.consumer.rejoinPending), { what: "b holding its share (2/3/3), the group settled", timeoutMs: 30_000 });
    return second;
  });
  await produceUntil(producer, balanced);
  await balanced;
  assert.equal(group.overlaps, []);
  assert.equal(group.members.map((member) => member.failures), [[], [], []]);
  assert.equal(group.members.map((member) => member.tasks.size).sort(), [2, 3, 3]);
  // What a and c hold they held before: only b's share moved, each task once.
  for (const member of [first, late]) for (const task of member.tasks) assert.ok(before.get(member.name)!.has(task), `${task} stayed with ${member.name}`);
  assert.is(new Set(group.members.flatMap((member) => [...member.tasks])).size, 2 * PARTITIONS);
  // a went on processing while the rebalances were under way, and gave up only what moved.
  assert.ok(first.processedWhileJoining > 0, "a processed batches while joining");
  assert.ok(first.revocations >= 1);
}
