/**
 * Dashboards during a chaos run: keyed `get`s and fan-out `all`s on wordcount's store at a steady rate, asked of
 * any running instance with remote access on. Every answer is classified: a query status, a 5xx, a body that is
 * not JSON, or no answer within the query's timeout (a hang). Instances that are down are not asked.
 */
import { AnswerTimeout, requestJson, storeQuery } from "./http-json";
import type { SeededRandom } from "./seeded-random";

export const QUERY_TIMEOUT_MS = 5_000;
/** Past the query's own timeout, the time an answer may still take to arrive before it counts as a hang. */
const HANG_MARGIN_MS = 3_000;

export interface QueryFigures {
  byStatus: Record<string, number>;
  serverErrors: number;
  malformed: number;
  hangs: number;
  /** Connections refused or reset by an instance being killed at that moment. */
  unreachable: number;
  overTimeout: number;
  /** A few distinct reasons instances gave for failing their part of an ERROR or PARTIAL answer. */
  failureReasons: string[];
}

const REASONS_KEPT = 4;

interface AnswerBody {
  status?: string;
  result?: { failure?: { server?: string | null; errors?: { message?: string }[] }[] };
}

export class QueryLoad {
  readonly figures: QueryFigures = { byStatus: {}, serverErrors: 0, malformed: 0, hangs: 0, unreachable: 0, overTimeout: 0, failureReasons: [] };
  private timer: NodeJS.Timeout | undefined;
  private readonly pending = new Set<Promise<void>>();
  private tick = 0;

  /** `allowStale`: keyed gets may be answered by a standby (fan-out `all`s are answered by active tasks only). */
  constructor(
    private readonly urls: () => string[],
    private readonly words: readonly string[],
    private readonly random: SeededRandom,
    private readonly allowStale = false,
  ) {}

  start(intervalMs: number): void {
    this.timer = setInterval(() => this.ask(), intervalMs);
  }

  async stop(): Promise<QueryFigures> {
    clearInterval(this.timer);
    await Promise.all([...this.pending]);
    return this.figures;
  }

  private ask(): void {
    const urls = this.urls();
    if (urls.length === 0) return;
    const url = this.random.pick(urls);
    const fanOut = this.tick++ % 5 === 4;
    const query = fanOut ? { all: {} } : { get: { key: this.random.pick(this.words) } };
    const asking = this.askOne(url, query, this.allowStale && !fanOut);
    this.pending.add(asking);
    void asking.finally(() => this.pending.delete(asking));
  }

  private async askOne(url: string, query: Record<string, unknown>, allowStale: boolean): Promise<void> {
    const started = Date.now();
    const options = { remote_access_allowed: true, query_timeout_ms: QUERY_TIMEOUT_MS, retries: 2, retry_backoff_ms: 100, ...(allowStale ? { allow_stale: true } : {}) };
    try {
      const answer = await requestJson(`${url}/api/v1/applications/wordcount/stores/counts`, {
        method: "POST",
        body: storeQuery(query, options),
        timeoutMs: QUERY_TIMEOUT_MS + HANG_MARGIN_MS,
      });
      if (Date.now() - started > QUERY_TIMEOUT_MS + 1_000) this.figures.overTimeout++;
      if (answer.status >= 500) this.figures.serverErrors++;
      if (answer.malformed) this.figures.malformed++;
      const body = answer.body as AnswerBody;
      const status = body.status ?? `HTTP ${answer.status}`;
      this.figures.byStatus[status] = (this.figures.byStatus[status] ?? 0) + 1;
      this.keepReasons(body);
    } catch (error) {
      if (error instanceof AnswerTimeout) this.figures.hangs++;
      else this.figures.unreachable++;
    }
  }

  private keepReasons(body: AnswerBody): void {
    for (const failure of body.result?.failure ?? []) {
      // Instance addresses and ports vary from failure to failure; the reason is what is worth reading.
      const reason = (failure.errors?.[0]?.message ?? "no message").replace(/127\.0\.0\.1:\d+/g, "<instance>");
      if (this.figures.failureReasons.length < REASONS_KEPT && !this.figures.failureReasons.includes(reason)) this.figures.failureReasons.push(reason);
    }
  }
}
