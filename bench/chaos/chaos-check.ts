/**
 * The check after a chaos run, once everything has settled: the truth computed from the input topics, against
 * the acknowledged input, every instance's stores merged, and the output topic's last value per key.
 */
import { requestJson, storeQuery } from "./http-json";
import { PAGEVIEWS_TOPIC, WORDS_TOPIC, wordsOf, type ChaosFeeder } from "./chaos-feeder";
import { readWholeTopic } from "./topic-reader";
import { committedRecords, longsByKey } from "../../test/providers/streams/committed-outputs";

const PAGEVIEW_WINDOW_MS = 60_000;

export interface CheckFigures {
  inputRecords: number;
  /** Acknowledged records not found in their input topic. */
  lostRecords: number;
  /** Input records stored more than once (a producer retry after a lost acknowledgement). */
  duplicatedInputs: number;
  wordKeys: number;
  pageviewWindows: number;
  /** Keys (words, or page × window) whose merged store value differs from the truth, or that two instances hold. */
  miscountedKeys: number;
  /**
   * Diagnosis when counts are off: words of the input that never reached wordcount's repartition topic (by their
   * origin stamp `<offset>.<rank>@words:<partition>`), and repartition records stored more than once. Missing is
   * undefined once the application has purged consumed repartition records (DeleteRecords, as Kafka Streams does):
   * their words can no longer be looked for.
   */
  repartitionMissing: number | undefined;
  repartitionPurged: number;
  repartitionResent: number;
  /** Words whose last value in `word-counts` differs from the truth. */
  outputMismatches: number;
  /**
   * Records of `word-counts`, read read_committed, that repeat work already written: a word's count that does not go
   * up from one record to the next. Expected after faults under at_least_once; none under exactly_once_v2.
   */
  duplicateOutputs: number;
  /** A few mismatches, for the report. */
  samples: string[];
}

interface StoreRecord {
  key: unknown;
  value: unknown;
}

async function localRecords(url: string, store: string, type: string, query: Record<string, unknown>): Promise<StoreRecord[]> {
  const answer = await requestJson(`${url}/api/v1/applications/${store === "counts" ? "wordcount" : "pageviews"}/stores/${store}`, {
    method: "POST",
    body: storeQuery(query, { remote_access_allowed: false, query_timeout_ms: 30_000 }, type),
    timeoutMs: 40_000,
  });
  const body = answer.body as { status?: string; result?: { success: { records: StoreRecord[] }[] } };
  if (answer.status !== 200 || (body.status !== "SUCCESS" && body.status !== "NO_RESULT")) {
    throw new Error(`${store} on ${url} answered ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
  return (body.result?.success ?? []).flatMap((entry) => entry.records);
}

function compare(truth: Map<string, number>, held: Map<string, number[]>, what: string, figures: CheckFigures): void {
  for (const [key, expected] of truth) {
    const values = held.get(key) ?? [];
    if (values.length !== 1 || values[0] !== expected) {
      figures.miscountedKeys++;
      if (figures.samples.length < 10) figures.samples.push(`${what} ${key}: expected ${expected}, instances hold ${JSON.stringify(values)}`);
    }
  }
  for (const [key, values] of held) {
    if (!truth.has(key)) {
      figures.miscountedKeys++;
      if (figures.samples.length < 10) figures.samples.push(`${what} ${key}: not in the input, instances hold ${JSON.stringify(values)}`);
    }
  }
}

export async function checkResults(bootstrap: string, feeder: ChaosFeeder, instanceUrls: string[]): Promise<CheckFigures> {
  const figures: CheckFigures = { inputRecords: 0, lostRecords: 0, duplicatedInputs: 0, repartitionMissing: 0, repartitionPurged: 0, repartitionResent: 0, wordKeys: 0, pageviewWindows: 0, miscountedKeys: 0, outputMismatches: 0, duplicateOutputs: 0, samples: [] };

  const wordTruth = new Map<string, number>();
  const seenLines = new Set<number>();
  const expectedOrigins = new Set<string>();
  for (const record of (await readWholeTopic(bootstrap, WORDS_TOPIC)).records) {
    figures.inputRecords++;
    const seq = Number(record.key!.toString().slice("line-".length));
    if (seenLines.has(seq)) figures.duplicatedInputs++;
    seenLines.add(seq);
    wordsOf(record.value!.toString()).forEach((word, rank) => {
      wordTruth.set(word, (wordTruth.get(word) ?? 0) + 1);
      expectedOrigins.add(`${record.offset}.${rank}@${WORDS_TOPIC}:${record.partition}`);
    });
  }
  const repartition = await readWholeTopic(bootstrap, "wordcount-words-by-word-repartition");
  for (const record of repartition.records) {
    const origin = record.headers["sluice.origin"]?.toString();
    if (origin === undefined) continue;
    if (!expectedOrigins.delete(origin)) figures.repartitionResent++;
  }
  figures.repartitionPurged = repartition.deleted;
  figures.repartitionMissing = repartition.deleted === 0 ? expectedOrigins.size : undefined;
  const viewTruth = new Map<string, number>();
  const seenViews = new Set<number>();
  for (const record of (await readWholeTopic(bootstrap, PAGEVIEWS_TOPIC)).records) {
    figures.inputRecords++;
    const view = JSON.parse(record.value!.toString()) as { page: string; seq: number };
    if (seenViews.has(view.seq)) figures.duplicatedInputs++;
    seenViews.add(view.seq);
    const windowStart = record.timestamp - (record.timestamp % PAGEVIEW_WINDOW_MS);
    const key = `${view.page}@${windowStart}`;
    viewTruth.set(key, (viewTruth.get(key) ?? 0) + 1);
  }
  for (const seq of feeder.ackedLines.keys()) if (!seenLines.has(seq)) figures.lostRecords++;
  for (const seq of feeder.ackedViews.keys()) if (!seenViews.has(seq)) figures.lostRecords++;
  figures.wordKeys = wordTruth.size;
  figures.pageviewWindows = viewTruth.size;

  const heldWords = new Map<string, number[]>();
  const heldViews = new Map<string, number[]>();
  const timestamps = [...feeder.ackedViews.values()].map((view) => view.timestamp);
  const timeFrom = Math.min(...timestamps) - PAGEVIEW_WINDOW_MS;
  const timeTo = Math.max(...timestamps);
  for (const url of instanceUrls) {
    for (const record of await localRecords(url, "counts", "key_value", { all: {} })) {
      const key = String(record.key);
      heldWords.set(key, [...(heldWords.get(key) ?? []), Number(record.value)]);
    }
    const windows = await localRecords(url, "views-per-minute", "window", { fetch_all: { time_from: timeFrom, time_to: timeTo } });
    for (const record of windows) {
      const windowed = record.key as { key: string; window_start: number };
      const key = `${windowed.key}@${windowed.window_start}`;
      heldViews.set(key, [...(heldViews.get(key) ?? []), Number(record.value)]);
    }
  }
  compare(wordTruth, heldWords, "word", figures);
  compare(viewTruth, heldViews, "pageviews", figures);

  const outputs = longsByKey(await committedRecords(bootstrap, "word-counts"));
  const lastOutput = new Map([...outputs].map(([word, counts]) => [word, counts[counts.length - 1]]));
  for (const counts of outputs.values()) counts.forEach((count, i) => i > 0 && count <= counts[i - 1] && figures.duplicateOutputs++);
  for (const [word, expected] of wordTruth) {
    if (lastOutput.get(word) !== expected) {
      figures.outputMismatches++;
      if (figures.samples.length < 10) figures.samples.push(`word-counts ${word}: expected ${expected}, last output ${lastOutput.get(word)}`);
    }
  }
  return figures;
}
