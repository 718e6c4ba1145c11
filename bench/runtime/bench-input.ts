/** The input the streams benches produce beforehand: records for the stateless topology, lines of words for wordcount. */
import type { Message, Producer } from "kafkajs";

/** The stateless topology's input values. */
export const statelessValue = (i: number) => `record number ${i} with some payload text`;

const VOCABULARY = Array.from({ length: 5_000 }, (_, i) => `word${i}`);
const WORDS_PER_LINE = 10;

/** Line `i` of wordcount's input: ten words of a vocabulary of 5,000, spread evenly. */
export const wordLine = (i: number) => Array.from({ length: WORDS_PER_LINE }, (_, j) => VOCABULARY[(i * WORDS_PER_LINE + j * 7919) % VOCABULARY.length]).join(" ");

/** Each word's count once wordcount has read lines 0 to `lines` - 1. */
export function wordCounts(lines: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < lines; i++) for (const word of wordLine(i).split(" ")) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/**
 * `count` records keyed k0…k999 with `value(i)`, in per-partition requests of 1,000 (kafkajs groups a request's
 * messages in quadratic time) spread over `partitions`, several in flight.
 */
export async function produceInput(producer: Producer, topic: string, count: number, partitions: number, value: (i: number) => string): Promise<void> {
  const perRequest = 1_000;
  const inFlight: Promise<unknown>[] = [];
  for (let start = 0; start < count; start += perRequest) {
    const partition = (start / perRequest) % partitions;
    const messages: Message[] = [];
    for (let i = start; i < Math.min(start + perRequest, count); i++) messages.push({ key: `k${i % 1000}`, value: value(i), partition });
    inFlight.push(producer.send({ topic, messages }));
    if (inFlight.length >= 8) await Promise.all(inFlight.splice(0));
  }
  await Promise.all(inFlight);
}
