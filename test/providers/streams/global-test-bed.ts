/**
 * What the global table and global store tests on a broker share: an in-memory embedded broker with the customers,
 * orders and output topics (customers on two partitions, orders on three), a producer that spreads keys as Kafka's
 * default partitioner does, a state dir, Sluice instances running one provider, and readers of the output topic.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kafka, logLevel, Partitioners, type Consumer, type Producer } from "kafkajs";
import { TOPOLOGY_PROVIDER_CONTRACT, type TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { startBroker, type RunningBroker } from "../../../providers/broker";
import { eventually } from "../../helpers/eventually";
import { startSluice, type RunningSluice } from "../../helpers/sluice";

export interface GlobalTestBed {
  producer: Producer;
  startInstance(): Promise<RunningSluice>;
  /** Every record of the output topic, once `until` holds of them. */
  readOutput(until: (values: string[]) => boolean): Promise<string[]>;
  close(): Promise<void>;
}

export async function globalTestBed(topics: { customers: string; orders: string; output: string }, provider: TopologyProvider): Promise<GlobalTestBed> {
  const broker: RunningBroker = await startBroker({ port: 0, storage: "memory", initialRebalanceDelayMs: 0 });
  const consumers: Consumer[] = [];
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-global-"));
  let producer: Producer | undefined;
  const close = async () => {
    for (const consumer of consumers) await consumer.disconnect();
    await producer?.disconnect();
    await broker.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    const kafka = new Kafka({ clientId: `${provider.name}-test`, brokers: [`127.0.0.1:${broker.port}`], logLevel: logLevel.NOTHING });
    const admin = kafka.admin();
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic: topics.customers, numPartitions: 2 }, { topic: topics.orders, numPartitions: 3 }, { topic: topics.output, numPartitions: 1 }] });
    await admin.disconnect();
    producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
    await producer.connect();
    return {
      producer,
      startInstance: () =>
        startSluice({
          services: { [TOPOLOGY_PROVIDER_CONTRACT]: [provider] },
          overrides: { "streams.bootstrap.servers": `127.0.0.1:${broker.port}`, "streams.state.dir": stateDir },
        }),
      readOutput: async (until) => {
        const values: string[] = [];
        const consumer = kafka.consumer({ groupId: `reader-${consumers.length}` });
        consumers.push(consumer);
        await consumer.connect();
        await consumer.subscribe({ topic: topics.output, fromBeginning: true });
        await consumer.run({ eachMessage: async ({ message }) => void values.push(message.value!.toString()) });
        await eventually(() => until(values), { what: `records of ${topics.output}`, timeoutMs: 30_000 });
        return values;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
