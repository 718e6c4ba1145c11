/** Reads a whole topic, from its log start to the log end offsets it has when the read starts. */
import { Kafka, logLevel, type IHeaders } from "kafkajs";

export interface ReadRecord {
  partition: number;
  offset: number;
  headers: Record<string, Buffer | undefined>;
  key: Buffer | null;
  value: Buffer | null;
  timestamp: number;
}

function headersOf(headers: IHeaders | undefined): Record<string, Buffer | undefined> {
  const read: Record<string, Buffer | undefined> = {};
  for (const [name, value] of Object.entries(headers ?? {})) read[name] = Array.isArray(value) ? Buffer.from(String(value[0])) : typeof value === "string" ? Buffer.from(value) : value;
  return read;
}

export interface WholeTopic {
  records: ReadRecord[];
  /** Records before the log start offsets: deleted (retention, DeleteRecords) before the read. */
  deleted: number;
}

export async function readWholeTopic(bootstrap: string, topic: string): Promise<WholeTopic> {
  const kafka = new Kafka({ clientId: "chaos-check", brokers: [bootstrap], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const deleted = ends.reduce((sum, end) => sum + Number(end.low), 0);
  const remaining = new Map(ends.filter((end) => Number(end.high) > Number(end.low)).map((end) => [end.partition, Number(end.high)]));
  const records: ReadRecord[] = [];
  if (remaining.size === 0) return { records, deleted };
  const consumer = kafka.consumer({ groupId: `chaos-check-${topic}-${Date.now()}`, maxBytesPerPartition: 4 << 20 });
  await consumer.connect();
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    consumer
      .run({
        eachBatch: async ({ batch }) => {
          const end = remaining.get(batch.partition);
          if (end === undefined) return;
          for (const message of batch.messages) {
            if (Number(message.offset) >= end) break;
            records.push({ partition: batch.partition, offset: Number(message.offset), headers: headersOf(message.headers), key: message.key, value: message.value, timestamp: Number(message.timestamp) });
          }
          if (Number(batch.lastOffset()) + 1 >= end) remaining.delete(batch.partition);
          if (remaining.size === 0) resolve();
        },
      })
      .catch(reject);
  });
  await consumer.disconnect();
  return { records, deleted };
}
