/**
 * Members of Sluice's group consumer with `group.protocol=consumer` (KIP-848) on some broker (Apache Kafka from the
 * reference test bed, or the embedded broker), and the topic and group they share: who owns which partition (a second
 * owner at once is recorded), which records were seen, and how each member's assignments changed.
 */
import type { Kafka } from "kafkajs";
import * as assert from "uvu/assert";
import { eventually } from "./eventually";
import { GroupConsumer, type GroupConsumerOptions } from "../../providers/kafka-client";
import type { ComponentLogger } from "../../kernel/logger";
import { roundRobinAssignor } from "../providers/kafka-client/round-robin-assignor";

export const PARTITIONS = 6;

export interface ConsumerProtocolBed {
  bootstrap(): string[];
  kafkajs(): Pick<Kafka, "admin" | "producer">;
}

/** One topic and group, and what its members did with them. */
export class Scenario {
  /** The member that owns each partition now: a second owner at once is a failure. */
  readonly owners = new Map<number, string>();
  readonly doubleOwned: string[] = [];
  readonly seen = new Set<string>();
  readonly members: Member[] = [];
  constructor(
    readonly bed: ConsumerProtocolBed,
    readonly topic: string,
    readonly group: string,
  ) {}

  async createTopic(): Promise<void> {
    const admin = this.bed.kafkajs().admin();
    await admin.connect();
    await admin.createTopics({ topics: [{ topic: this.topic, numPartitions: PARTITIONS }], waitForLeaders: true });
    await admin.disconnect();
  }

  async produce(from: number, count: number): Promise<void> {
    const producer = this.bed.kafkajs().producer();
    await producer.connect();
    await producer.send({ topic: this.topic, acks: -1, messages: Array.from({ length: count }, (_, i) => ({ value: `v${from + i}`, partition: (from + i) % PARTITIONS })) });
    await producer.disconnect();
  }

  everyRecordSeen(count: number): boolean {
    return Array.from({ length: count }, (_, i) => `v${i}`).every((value) => this.seen.has(value));
  }

  /** Every partition's committed offset, as kafkajs' admin fetches it. */
  async committedOffsets(): Promise<string[]> {
    const admin = this.bed.kafkajs().admin();
    await admin.connect();
    try {
      const [{ partitions }] = await admin.fetchOffsets({ groupId: this.group, topics: [this.topic] });
      return partitions.sort((a, b) => a.partition - b.partition).map(({ offset }) => offset);
    } finally {
      await admin.disconnect();
    }
  }

  async startMember(name: string, options: Partial<GroupConsumerOptions> = {}): Promise<Member> {
    const member: Member = { name, consumer: undefined as unknown as GroupConsumer, partitions: [], rebalances: 0, failures: [], logged: [] };
    const log = (message: string) => void member.logged.push(message);
    const logger: ComponentLogger = { debug: log, info: log, warn: log, error: log };
    member.consumer = new GroupConsumer(
      {
        bootstrapServers: this.bed.bootstrap(),
        clientId: name,
        groupId: this.group,
        groupProtocol: "consumer",
        // The coordinator assigns: only the subscription's topics count.
        assignor: roundRobinAssignor([this.topic]),
        maxWaitMs: 100,
        logger,
        ...options,
      },
      {
        rebalancing: () => void member.rebalances++,
        // Called before the member gives its partitions up: when it takes a new assignment, and when it stops.
        revoking: async () => {
          for (const partition of member.partitions) if (this.owners.get(partition) === name) this.owners.delete(partition);
          member.partitions = [];
        },
        assigned: async (partitions) => {
          member.partitions = partitions[this.topic] ?? [];
          for (const partition of member.partitions) {
            const owner = this.owners.get(partition);
            if (owner !== undefined && owner !== name) this.doubleOwned.push(`partition ${partition}: ${owner} and ${name}`);
            this.owners.set(partition, name);
          }
        },
        batch: async (batch) => {
          await member.hold;
          for (let record = batch.records.read(); record !== undefined; record = batch.records.read()) this.seen.add(record.value!.toString());
        },
        failed: (error) => void member.failures.push(error),
      },
    );
    this.members.push(member);
    await member.consumer.start();
    return member;
  }

  async stopMember(member: Member): Promise<void> {
    await member.consumer.stop();
    this.members.splice(this.members.indexOf(member), 1);
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.members.splice(0).map((member) => member.consumer.stop()));
  }
}

export interface Member {
  name: string;
  consumer: GroupConsumer;
  partitions: number[];
  /** How many new assignments it took after its first. */
  rebalances: number;
  failures: unknown[];
  logged: string[];
  /** While set, its batches wait for this. */
  hold?: Promise<void>;
}

const counts = (...list: Member[]) => list.map((member) => member.partitions.length).join("/");

/** The members' partition counts are `expected` and none has a new assignment to take; else throws what they are. */
export function split(expected: string, ...list: Member[]): true {
  const now = counts(...list);
  if (now !== expected || list.some((member) => member.consumer.rejoinPending)) throw new Error(`the split is ${now}`);
  return true;
}

/**
 * Two static members split the topic; one stops (leaving with epoch -2) and starts again: it gets its partitions back,
 * the other takes no new assignment, and every record is read. `whileAway` runs while the first is stopped.
 */
export async function staticMemberComesBack(scenario: Scenario, timeoutMs: number, whileAway: () => Promise<void> = async () => undefined): Promise<void> {
  await scenario.createTopic();
  const a = await scenario.startMember("static-a", { groupInstanceId: "static-a" });
  const b = await scenario.startMember("static-b", { groupInstanceId: "static-b" });
  await eventually(() => split("3/3", a, b), { timeoutMs, what: "the partitions split 3/3" });
  const [aPartitions, bRebalances] = [[...a.partitions], b.rebalances];

  await scenario.stopMember(a);
  await whileAway();
  const restarted = await scenario.startMember("static-a", { groupInstanceId: "static-a" });
  await eventually(() => split("3/3", restarted, b), { timeoutMs, what: "the restarted member assigned" });
  assert.equal(restarted.partitions, aPartitions);
  await scenario.produce(0, 60);
  await eventually(() => scenario.everyRecordSeen(60), { timeoutMs, what: "every record read by the two members" });
  assert.is(b.rebalances, bRebalances, "the other member took no new assignment");
  assert.equal(scenario.doubleOwned, []);
  assert.equal([...restarted.failures, ...b.failures], []);
}

/**
 * A member holds its partitions (its batch waits) past its rebalance timeout while a second member joins: the
 * coordinator fences it, it joins again with epoch 0, the two split the topic, and no record is lost.
 */
export async function fencedMemberRejoins(scenario: Scenario, rebalanceTimeoutMs: number, timeoutMs: number): Promise<void> {
  await scenario.createTopic();
  const slow = await scenario.startMember("slow", { rebalanceTimeoutMs });
  await eventually(() => split("6", slow), { timeoutMs, what: "the first member owning every partition" });
  let release = () => undefined as void;
  slow.hold = new Promise<void>((resolve) => (release = resolve));
  await scenario.produce(0, 60);
  const other = await scenario.startMember("other");
  // The coordinator asks the slow member to give half its partitions up; its batch holds them past its rebalance timeout.
  await eventually(() => slow.logged.some((line) => line.startsWith("member fenced")), { timeoutMs, what: "the slow member fenced" });
  release();
  slow.hold = undefined;
  await eventually(() => split("3/3", slow, other), { timeoutMs, what: "the partitions split 3/3 after the fenced member joined again" });
  await scenario.produce(60, 60);
  await eventually(() => scenario.everyRecordSeen(120), { timeoutMs, what: "every record read" });
  assert.equal([...slow.failures, ...other.failures], []);
}
