/**
 * The chaos run's input: lines of words into `words` and page views into `pageviews`, produced at a steady rate
 * with acks=all, each record carrying its sequence number. A batch that fails is sent again (the same records)
 * until it is acknowledged, so every record generated is eventually acknowledged once the run settles.
 */
import { Kafka, logLevel, type Message, type Producer } from "kafkajs";
import { SeededRandom } from "./seeded-random";

export const WORDS_TOPIC = "words";
export const PAGEVIEWS_TOPIC = "pageviews";

export const VOCABULARY = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}x${((i * 7919) % 997).toString(36)}`);
const PAGES = Array.from({ length: 12 }, (_, i) => `/page/${i}`);
const USERS = Array.from({ length: 40 }, (_, i) => `user-${i}`);

export interface FedLine {
  seq: number;
  line: string;
}

export interface FedView {
  seq: number;
  user: string;
  page: string;
  timestamp: number;
}

export interface FeederFigures {
  generated: number;
  acknowledged: number;
  /** Sends that failed and were retried. */
  retriedSends: number;
}

export class ChaosFeeder {
  /** Acknowledged records by sequence number. */
  readonly ackedLines = new Map<number, FedLine>();
  readonly ackedViews = new Map<number, FedView>();
  private readonly figures: FeederFigures = { generated: 0, acknowledged: 0, retriedSends: 0 };
  private readonly random: SeededRandom;
  private readonly producer: Producer;
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private stopping = false;

  constructor(bootstrap: string, seed: number, private readonly linesPerTick: number, private readonly viewsPerTick: number) {
    this.random = new SeededRandom(seed ^ 0x5eed);
    const kafka = new Kafka({ clientId: "chaos-feeder", brokers: [bootstrap], logLevel: logLevel.NOTHING, retry: { retries: 3, initialRetryTime: 200 } });
    this.producer = kafka.producer({ allowAutoTopicCreation: false });
  }

  async start(tickMs: number): Promise<void> {
    await this.producer.connect();
    this.timer = setInterval(() => this.tick(), tickMs);
  }

  /** Stops generating and waits until every generated record is acknowledged. */
  async drain(): Promise<FeederFigures> {
    this.stopping = true;
    clearInterval(this.timer);
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    await this.producer.disconnect();
    return { ...this.figures };
  }

  private tick(): void {
    const lines: FedLine[] = [];
    const views: FedView[] = [];
    for (let i = 0; i < this.linesPerTick; i++) {
      const words = Array.from({ length: this.random.int(1, 8) }, () => this.random.pick(VOCABULARY));
      lines.push({ seq: this.seq++, line: words.join(" ") });
    }
    const now = Date.now();
    for (let i = 0; i < this.viewsPerTick; i++) views.push({ seq: this.seq++, user: this.random.pick(USERS), page: this.random.pick(PAGES), timestamp: now });
    this.figures.generated += lines.length + views.length;
    const sending = this.sendUntilAcknowledged(lines, views);
    this.inFlight.add(sending);
    void sending.finally(() => this.inFlight.delete(sending));
  }

  private async sendUntilAcknowledged(lines: FedLine[], views: FedView[]): Promise<void> {
    const topicMessages = [
      { topic: WORDS_TOPIC, messages: lines.map((l): Message => ({ key: `line-${l.seq}`, value: l.line })) },
      {
        topic: PAGEVIEWS_TOPIC,
        messages: views.map((v): Message => ({ key: v.user, value: JSON.stringify({ user: v.user, page: v.page, seq: v.seq }), timestamp: String(v.timestamp) })),
      },
    ];
    for (let attempt = 0; ; attempt++) {
      try {
        await this.producer.sendBatch({ topicMessages, acks: -1, timeout: 10_000 });
        break;
      } catch {
        this.figures.retriedSends++;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 200 * 2 ** Math.min(attempt, 4))));
        if (this.stopping && attempt > 200) throw new Error("the feeder could not get its records acknowledged");
      }
    }
    for (const l of lines) this.ackedLines.set(l.seq, l);
    for (const v of views) this.ackedViews.set(v.seq, v);
    this.figures.acknowledged += lines.length + views.length;
  }
}

/** Words of a line exactly as the wordcount example splits them. */
export function wordsOf(line: string): string[] {
  return line.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((word) => word.length > 0);
}
