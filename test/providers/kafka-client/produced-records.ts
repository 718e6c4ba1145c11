/** Reading back what the producer wrote, with a kafkajs consumer and with kcat, into one comparable shape. */
import type { Kafka } from "kafkajs";
import { eventually } from "../../helpers/eventually";
import type { ProducerRecord } from "../../../providers/kafka-client";
import { runKcat, type TestBroker } from "../broker/broker-test-kit";

/** A record as read back: keys and values hex (null stays null), headers as hex values by name. */
export interface ReadRecord {
  partition: number;
  offset: number;
  key: string | null;
  value: string | null;
  timestamp: number;
  headers: Record<string, string>;
}

const hex = (bytes: Buffer | string | null | undefined): string | null =>
  bytes === null || bytes === undefined ? null : Buffer.from(bytes).toString("hex");

/** What `record`, written to `partition` at `offset`, must read back as. */
export function expected(partition: number, offset: number, record: ProducerRecord): ReadRecord {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(record.headers ?? {})) headers[name] = hex(value)!;
  return { partition, offset, key: hex(record.key), value: hex(record.value), timestamp: record.timestamp, headers };
}

const byPosition = (a: ReadRecord, b: ReadRecord) => a.partition - b.partition || a.offset - b.offset;

export async function readWithKafkajs(kafka: Pick<Kafka, "consumer">, topic: string, count: number): Promise<ReadRecord[]> {
  const read: ReadRecord[] = [];
  const consumer = kafka.consumer({ groupId: `reader-${topic}-${Date.now()}`, maxWaitTimeInMs: 50 });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(message.headers ?? {})) headers[name] = hex(value as Buffer)!;
      read.push({ partition, offset: Number(message.offset), key: hex(message.key), value: hex(message.value), timestamp: Number(message.timestamp), headers });
    },
  });
  await eventually(() => read.length >= count, { what: `${count} records of ${topic} through kafkajs` });
  await consumer.disconnect();
  return read.sort(byPosition);
}

/**
 * kcat -C prints each record on one line, its bytes as they are: keys, values and header values must be
 * printable ASCII without '|', ',' or '='. The lengths tell null from empty.
 */
export async function readWithKcat(broker: TestBroker, topic: string): Promise<ReadRecord[]> {
  const result = await runKcat(broker.bootstrap, ["-C", "-t", topic, "-e", "-q", "-f", "%p|%o|%K|%k|%S|%s|%T|%h\n"]);
  if (result.code !== 0) throw new Error(`kcat failed (${result.code}): ${result.stderr}`);
  return result.stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [partition, offset, keyLength, key, valueLength, value, timestamp, headerList] = line.split("|");
      const headers: Record<string, string> = {};
      if (headerList !== "") {
        for (const pair of headerList.split(",")) {
          const equals = pair.indexOf("=");
          headers[pair.slice(0, equals)] = hex(pair.slice(equals + 1))!;
        }
      }
      return {
        partition: Number(partition),
        offset: Number(offset),
        key: keyLength === "-1" ? null : hex(key),
        value: valueLength === "-1" ? null : hex(value),
        timestamp: Number(timestamp),
        headers,
      };
    })
    .sort(byPosition);
}
