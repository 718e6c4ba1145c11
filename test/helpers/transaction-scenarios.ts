/**
 * What Sluice's transactional producer and read_committed fetcher must do on any cluster, written once and run
 * against the embedded broker (default tier) and against Apache Kafka 4.4 (reference tier): commits read, aborts
 * skipped, markers hidden, reads stopped at an open transaction, an old producer fenced by a new one, a silent
 * producer's transaction aborted at its timeout, offsets committed with their transaction.
 */
import { connect } from "node:net";
import * as assert from "uvu/assert";
import { OffsetFetch, ApiCodec, ByteReader, errorCodeName, FrameSplitter } from "../../providers/kafka-protocol";
import { RecordProducer, TransactionalProducer, TransactionError, type TransactionalProducerOptions } from "../../providers/kafka-client";
import { eventually } from "./eventually";
import { readToEnd, valuesOf } from "./read-to-end";

/** Where a scenario runs: a cluster, a way to make topics, and the producers it opens (closed by the test). */
export interface TransactionBed {
  bootstrap: string;
  createTopic(topic: string, partitions: number): Promise<void>;
  producers: { close(): Promise<void> }[];
}

export function transactionalProducer(bed: TransactionBed, transactionalId: string, options: Partial<TransactionalProducerOptions> = {}): TransactionalProducer {
  const producer = new TransactionalProducer({ bootstrapServers: [bed.bootstrap], clientId: transactionalId, transactionalId, retryBackoffMs: 20, ...options });
  bed.producers.push(producer);
  return producer;
}

export const records = (...values: string[]) => values.map((value) => ({ key: null, value, timestamp: Date.now() }));

/** Sends `values` (suffixed @partition) to each partition in one transaction and ends it. */
export async function transaction(producer: TransactionalProducer, topic: string, partitions: number[], values: string[], commit: boolean): Promise<void> {
  producer.beginTransaction();
  await producer.send(partitions.map((partition) => ({ topic, partition, records: records(...values.map((value) => `${value}@${partition}`)) })));
  if (commit) await producer.commitTransaction();
  else await producer.abortTransaction();
}

export async function rejection(promise: Promise<unknown>): Promise<TransactionError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, TransactionError);
    return error as TransactionError;
  }
  throw new Error("expected the call to fail");
}

/** The group's committed offsets of the topic's partitions, asked of the (single) broker with OffsetFetch v5. */
export async function committedOffsets(bootstrap: string, groupId: string, topic: string, partitions: number[]): Promise<[number, bigint][]> {
  return (await offsetFetch(bootstrap, 5, groupId, topic, partitions, false)).map(([partition, offset]): [number, bigint] => [partition, offset]);
}

/** OffsetFetch v7 with requireStable: each partition's committed offset, or the name of its error (UNSTABLE_OFFSET_COMMIT). */
export async function stableOffsets(bootstrap: string, groupId: string, topic: string, partitions: number[]): Promise<[number, string][]> {
  return (await offsetFetch(bootstrap, 7, groupId, topic, partitions, true)).map(([partition, offset, errorCode]) => [partition, errorCode === 0 ? String(offset) : errorCodeName(errorCode)]);
}

async function offsetFetch(bootstrap: string, version: number, groupId: string, topic: string, partitions: number[], requireStable: boolean): Promise<[number, bigint, number][]> {
  const [host, port] = bootstrap.split(":");
  const codec = new ApiCodec(OffsetFetch);
  const frames = new FrameSplitter(1 << 24);
  const socket = connect(Number(port), host);
  try {
    const frame = await new Promise<ByteReader>((resolve, reject) => {
      socket.once("error", reject);
      socket.on("data", (chunk) => {
        for (const received of frames.push(chunk)) resolve(new ByteReader(received));
      });
      socket.write(Buffer.concat(codec.encodeRequestFrame(1, version, "committed-offsets", { groupId, topics: [{ name: topic, partitionIndexes: partitions }], requireStable })));
    });
    frame.int32(); // correlation id
    const answer = codec.decodeResponse(frame, version);
    return answer.topics
      .flatMap(({ partitions: found }) => found.map(({ partitionIndex, committedOffset, errorCode }): [number, bigint, number] => [partitionIndex, committedOffset, errorCode]))
      .sort((a, b) => a[0] - b[0]);
  } finally {
    socket.destroy();
  }
}

export const TRANSACTION_SCENARIOS: Record<string, (bed: TransactionBed) => Promise<void>> = {
  "committed transactions are read read_committed, aborted ones skipped, and the markers are read by no one": async (bed) => {
    await bed.createTopic("orders", 2);
    const producer = transactionalProducer(bed, "orders-writer");
    await producer.initTransactions();
    await transaction(producer, "orders", [0, 1], ["a", "b"], true);
    await transaction(producer, "orders", [0, 1], ["x", "y"], false);
    await transaction(producer, "orders", [0], ["c"], true);

    const committed = await readToEnd(bed.bootstrap, "orders", [0, 1], "read_committed");
    assert.equal(valuesOf(committed), ["a@0", "b@0", "c@0", "a@1", "b@1"]);
    assert.equal(committed.records.map(({ offset }) => offset), [0, 1, 6, 0, 1]);
    // Each partition ends past its markers: records and a marker per transaction, and partition 1 had no third.
    assert.equal(committed.ends, { 0: 8, 1: 6 });
    const everything = await readToEnd(bed.bootstrap, "orders", [0, 1], "read_uncommitted");
    assert.equal(valuesOf(everything), ["a@0", "b@0", "x@0", "y@0", "c@0", "a@1", "b@1", "x@1", "y@1"]);
  },

  "a read_committed read stops at the first record of an open transaction, and goes on once it commits": async (bed) => {
    await bed.createTopic("ledger", 1);
    const first = transactionalProducer(bed, "ledger-first");
    const second = transactionalProducer(bed, "ledger-second");
    await first.initTransactions();
    await second.initTransactions();
    await transaction(first, "ledger", [0], ["before"], true);
    second.beginTransaction();
    await second.send([{ topic: "ledger", partition: 0, records: records("open-1", "open-2") }]);
    const plain = new RecordProducer({ bootstrapServers: [bed.bootstrap], clientId: "ledger-plain" });
    bed.producers.push(plain);
    await plain.send([{ topic: "ledger", partition: 0, records: records("after") }]);

    const whileOpen = await readToEnd(bed.bootstrap, "ledger", [0], "read_committed");
    assert.equal(valuesOf(whileOpen), ["before@0"]);
    assert.equal(whileOpen.ends, { 0: 2 }, "the last stable offset: the open transaction's first record");
    assert.equal(valuesOf(await readToEnd(bed.bootstrap, "ledger", [0], "read_uncommitted")), ["before@0", "open-1", "open-2", "after"]);

    await second.commitTransaction();
    assert.equal(valuesOf(await readToEnd(bed.bootstrap, "ledger", [0], "read_committed")), ["before@0", "open-1", "open-2", "after"]);
  },

  "a new producer with the same transactional id fences the old one and aborts its open transaction": async (bed) => {
    await bed.createTopic("fenced", 1);
    const zombie = transactionalProducer(bed, "the-writer");
    await zombie.initTransactions();
    zombie.beginTransaction();
    await zombie.send([{ topic: "fenced", partition: 0, records: records("zombie-1") }]);

    const successor = transactionalProducer(bed, "the-writer");
    await successor.initTransactions();
    assert.ok(successor.producerIdentity!.producerEpoch > zombie.producerIdentity!.producerEpoch, "the successor's epoch is newer");

    const sent = await rejection(zombie.send([{ topic: "fenced", partition: 0, records: records("zombie-2") }]));
    assert.is(sent.kind, "fatal");
    assert.ok(sent.fenced, sent.message);
    assert.is(await rejection(zombie.commitTransaction()), sent, "every later call throws the fatal error again");

    await transaction(successor, "fenced", [0], ["successor"], true);
    assert.equal(valuesOf(await readToEnd(bed.bootstrap, "fenced", [0], "read_committed")), ["successor@0"]);
  },

  "a producer that stays silent past its transaction timeout has its transaction aborted and is fenced": async (bed) => {
    await bed.createTopic("slow", 1);
    const silent = transactionalProducer(bed, "slow-writer", { transactionTimeoutMs: 300 });
    await silent.initTransactions();
    silent.beginTransaction();
    await silent.send([{ topic: "slow", partition: 0, records: records("late-1", "late-2") }]);
    // The abort marker moves the last stable offset past the transaction (2 records and the marker).
    await eventually(async () => (await readToEnd(bed.bootstrap, "slow", [0], "read_committed")).ends[0] === 3, { what: "the timed-out transaction's abort", timeoutMs: 20_000 });

    const error = await rejection(silent.commitTransaction());
    assert.is(error.kind, "fatal");
    assert.ok(error.fenced, error.message);
    assert.equal(valuesOf(await readToEnd(bed.bootstrap, "slow", [0], "read_committed")), []);
  },

  "offsets sent to a transaction are the group's once it commits, and not when it aborts": async (bed) => {
    await bed.createTopic("input", 2);
    await bed.createTopic("output", 1);
    const producer = transactionalProducer(bed, "copier");
    await producer.initTransactions();
    const group = { groupId: "copiers", generationId: -1, memberId: "", groupInstanceId: null };
    const committed = () => committedOffsets(bed.bootstrap, "copiers", "input", [0, 1]);

    producer.beginTransaction();
    await producer.send([{ topic: "output", partition: 0, records: records("copied") }]);
    await producer.sendOffsetsToTransaction([{ topic: "input", partition: 0, offset: 10 }, { topic: "input", partition: 1, offset: 4 }], group);
    assert.equal(await committed(), [[0, -1n], [1, -1n]], "not before the commit");
    await producer.commitTransaction();
    // A cluster writes the markers after it answers the commit: the offsets count once they are written.
    const expected = JSON.stringify([[0, "10"], [1, "4"]]);
    await eventually(async () => JSON.stringify((await committed()).map(([partition, offset]) => [partition, String(offset)])) === expected, { what: `committed offsets ${expected}` });

    producer.beginTransaction();
    await producer.sendOffsetsToTransaction([{ topic: "input", partition: 0, offset: 20 }], group);
    await producer.abortTransaction();
    assert.equal(await committed(), [[0, 10n], [1, 4n]]);
  },

  "an offset an open transaction commits is unstable for read_committed readers until the transaction ends": async (bed) => {
    await bed.createTopic("steady", 2);
    const producer = transactionalProducer(bed, "steady-writer");
    await producer.initTransactions();
    const group = { groupId: "steady-readers", generationId: -1, memberId: "", groupInstanceId: null };
    const stable = () => stableOffsets(bed.bootstrap, "steady-readers", "steady", [0, 1]);

    producer.beginTransaction();
    await producer.sendOffsetsToTransaction([{ topic: "steady", partition: 0, offset: 7 }], group);
    assert.equal(await stable(), [[0, "UNSTABLE_OFFSET_COMMIT (88)"], [1, "-1"]], "the partition the transaction commits waits; the other answers");
    assert.equal(await committedOffsets(bed.bootstrap, "steady-readers", "steady", [0]), [[0, -1n]], "without requireStable: the offset before the transaction");
    await producer.commitTransaction();
    await eventually(async () => JSON.stringify(await stable()) === JSON.stringify([[0, "7"], [1, "-1"]]), { what: "the committed offset, stable" });

    producer.beginTransaction();
    await producer.sendOffsetsToTransaction([{ topic: "steady", partition: 1, offset: 3 }], group);
    assert.equal((await stable())[1], [1, "UNSTABLE_OFFSET_COMMIT (88)"]);
    await producer.abortTransaction();
    await eventually(async () => JSON.stringify(await stable()) === JSON.stringify([[0, "7"], [1, "-1"]]), { what: "the aborted offset, never committed" });
  },

  "calls out of order are refused without touching the transaction": async (bed) => {
    await bed.createTopic("ordered", 1);
    const producer = transactionalProducer(bed, "ordered-writer");
    assert.match((await rejection(producer.send([{ topic: "ordered", partition: 0, records: records("early") }]))).message, /initTransactions/);
    await producer.initTransactions();
    assert.match((await rejection(producer.commitTransaction())).message, /beginTransaction/);
    producer.beginTransaction();
    // A transaction that added nothing ends without its coordinator.
    await producer.commitTransaction();
    await transaction(producer, "ordered", [0], ["v"], true);
    assert.equal(valuesOf(await readToEnd(bed.bootstrap, "ordered", [0], "read_committed")), ["v@0"]);
  },
};
