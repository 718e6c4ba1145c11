/**
 * Sluice's own group consumer reading a topic and decoding each record's key and value to strings, and nothing
 * more: how fast this Node.js process takes records in, the floor under any topology, measured beside kcat.
 */
import { GroupConsumer, type GroupAssignor } from "../../providers/kafka-client";
import { decodeAssignment, encodeAssignment, encodeSubscription } from "../../providers/kafka-protocol";
import { seconds, type Timing } from "./runtime-timing";

/** The one member gets every partition of `topic`. */
function everyPartition(topic: string): GroupAssignor {
  return {
    name: "bench-every-partition",
    subscription: () => encodeSubscription([topic], null),
    assign: async (members, partitionCount) => {
      const all = Array.from({ length: partitionCount(topic) ?? 0 }, (_, partition) => partition);
      return new Map(members.map(({ memberId }, i) => [memberId, encodeAssignment(i === 0 ? { [topic]: all } : {})]));
    },
    partitionsOf: decodeAssignment,
  };
}

/** Reads `count` records of `topic` from the beginning in group `groupId`, decoding each key and value. */
export async function timeDecodingConsumer(bootstrapServers: string[], topic: string, groupId: string, count: number): Promise<Timing> {
  const started = Date.now();
  let first = 0;
  let read = 0;
  let decodedBytes = 0;
  let done!: () => void;
  const finished = new Promise<void>((resolve) => (done = resolve));
  let failure: unknown;
  const consumer = new GroupConsumer(
    { bootstrapServers, clientId: groupId, groupId, assignor: everyPartition(topic) },
    {
      rebalancing: () => undefined,
      assigned: async () => undefined,
      batch: async ({ records }) => {
        if (first === 0) first = Date.now();
        for (let record = records.read(); record !== undefined; record = records.read()) {
          // In place, as a topology's string source decodes them.
          const { bytes, keyStart, keySize, valueStart, valueSize } = record;
          if (keySize >= 0) decodedBytes += bytes.toString("utf8", keyStart, keyStart + keySize).length;
          if (valueSize >= 0) decodedBytes += bytes.toString("utf8", valueStart, valueStart + valueSize).length;
          read++;
        }
        if (read >= count) done();
      },
      failed: (error) => {
        failure = error;
        done();
      },
    },
  );
  await consumer.start();
  await finished;
  const timing = { firstSeconds: seconds(started, first), totalSeconds: seconds(started, Date.now()) };
  await consumer.stop();
  if (failure !== undefined) throw failure;
  if (decodedBytes === 0) throw new Error(`the decoding consumer read ${read} records of ${topic} and decoded nothing`);
  return timing;
}
