/**
 * Sample data for the examples (`examples.feed`): a gentle stream of lines, page views, clicks and sensor
 * readings into their input topics, so a new user sees live numbers at once.
 */
import { Kafka, Partitioners, logLevel, type Producer } from "kafkajs";

export interface ExampleFeederOptions {
  bootstrapServers: string[];
  /** Time between rounds; default 1000 ms. */
  intervalMs?: number;
}

const LINES = [
  "the quick brown fox jumps over the lazy dog",
  "kafka streams in one node process",
  "streams of words become counts of words",
  "a sluice lets the water through",
];
const USERS = ["ann", "bob", "carla", "dmitri"];
const PAGES = ["/", "/docs", "/pricing", "/blog"];
const SENSORS = ["s1", "s2", "s3"];

const pick = <T>(items: readonly T[], round: number, salt: number): T => items[(round * 7 + salt * 3) % items.length];

export async function startExampleFeeder(options: ExampleFeederOptions): Promise<{ stop(): Promise<void> }> {
  const kafka = new Kafka({ clientId: "sluice-example-feeder", brokers: options.bootstrapServers, logLevel: logLevel.NOTHING });
  const producer: Producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  let round = 0;
  let sending: Promise<unknown> = Promise.resolve();
  const feed = () => {
    const now = Date.now();
    const user = pick(USERS, round, 1);
    const sensor = pick(SENSORS, round, 2);
    sending = producer
      .sendBatch({
        topicMessages: [
          { topic: "words", messages: [{ value: pick(LINES, round, 0) }] },
          { topic: "pageviews", messages: [{ key: user, value: JSON.stringify({ user, page: pick(PAGES, round, 3) }) }] },
          { topic: "clicks", messages: [{ key: user, value: pick(PAGES, round, 4) }] },
          { topic: "readings", messages: [{ key: sensor, value: JSON.stringify({ sensor, celsius: 18 + ((round * 13) % 70) / 10, at: now }) }] },
        ],
      })
      .catch(() => undefined);
    round++;
  };
  const timer = setInterval(feed, options.intervalMs ?? 1000);
  timer.unref();
  feed();
  return {
    stop: async () => {
      clearInterval(timer);
      await sending;
      await producer.disconnect();
    },
  };
}
