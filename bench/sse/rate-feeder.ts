/**
 * Child process of the SSE bench: produces sequence numbers 0, 1, 2, … to the bench input topic at `rate`
 * records/s for `seconds`, in small batches every 10 ms, then sends `{ sent }` to the parent and exits.
 */
import { Kafka, logLevel, Partitioners } from "kafkajs";
import { INPUT_TOPIC } from "./ticks-provider";

const [brokers, rateText, secondsText] = process.argv.slice(2);
const rate = Number(rateText);
const total = Math.round(rate * Number(secondsText));
const TICK_MS = 10;

async function main(): Promise<void> {
  const kafka = new Kafka({ clientId: "sse-bench-feeder", brokers: brokers.split(","), logLevel: logLevel.NOTHING });
  const producer = kafka.producer({ createPartitioner: Partitioners.DefaultPartitioner });
  await producer.connect();
  const started = performance.now();
  let sent = 0;
  while (sent < total) {
    // Catch up with the schedule: the records due by now that have not been sent yet.
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    if (due > sent) {
      const messages = Array.from({ length: due - sent }, (_, i) => ({ key: String((sent + i) % 16), value: String(sent + i) }));
      await producer.send({ topic: INPUT_TOPIC, messages, acks: 1 });
      sent = due;
    }
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
  }
  await producer.disconnect();
  process.send!({ sent });
}

main().catch((error) => {
  process.send!({ error: String(error) });
  process.exit(1);
});
