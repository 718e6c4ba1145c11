/**
 * Failover with and without a standby replica (issue 37): a `sluice broker` child and two `sluice start` children
 * running wordcount (`words` of two partitions), whose `counts` store is filled with `--keys` distinct words. Under a
 * steady feed, the owner of one counting task is SIGKILLed; the bench prints how long until a key of that task answers
 * again on the survivor — from its active task once the group has moved it there (session timeout, then restore), and
 * with a standby also from the standby at once (`allow_stale`) — and how many changelog records the takeover restored.
 * Run once with `streams.num.standby.replicas=0`, once with 1.
 *
 *   node dist/bench/failover/failover-bench.js [--keys=100000] [--session-ms=3000]
 */
import type { Producer } from "kafkajs";
import { numberArgument } from "../bench-arguments";
import { eventually } from "../../test/helpers/eventually";
import { http } from "../../test/helpers/sluice";
import { activeTasks, countsPartitions, startWordcountCluster, stopProcess, type WordcountInstance } from "../../test/providers/streams/wordcount-processes";

const KEYS = numberArgument("keys", 100_000);
const SESSION_MS = numberArgument("session-ms", 3_000);
const WORDS_PER_LINE = 100;

interface GetAnswer {
  status: string;
  result: { success: { standby?: boolean; records: unknown[] }[] };
}

async function get(url: string, key: string, options: Record<string, boolean>): Promise<GetAnswer | undefined> {
  const response = await http(`${url}/api/v1/applications/wordcount/stores/counts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", set_options: options, query: { get: { key } } }),
  }).catch(() => undefined);
  return response?.status === 200 ? (response.json() as GetAnswer) : undefined;
}

async function countOf(url: string): Promise<number> {
  const response = await http(`${url}/api/v1/applications/wordcount/stores/counts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", set_options: { remote_access_allowed: true }, query: { count: {} } }),
  });
  const answer = response.json() as { status: string; result: { success: { records: { value: number }[] }[] } };
  return answer.status === "SUCCESS" ? answer.result.success.reduce((sum, entry) => sum + (entry.records[0]?.value ?? 0), 0) : -1;
}

async function fill(producer: Producer): Promise<void> {
  const lines = Math.ceil(KEYS / WORDS_PER_LINE);
  for (let first = 0; first < lines; first += 500) {
    const messages = Array.from({ length: Math.min(500, lines - first) }, (_, index) => {
      const line = first + index;
      return { value: Array.from({ length: WORDS_PER_LINE }, (_, word) => `k${line * WORDS_PER_LINE + word}`).join(" ") };
    });
    await producer.send({ topic: "words", messages });
  }
}

interface Outcome {
  standbys: number;
  staleMs?: number;
  activeMs: number;
  restored: number;
}

async function run(standbys: number): Promise<Outcome> {
  const cluster = await startWordcountCluster(2);
  try {
    const flags = [`--streams.num.standby.replicas=${standbys}`, `--streams.session.timeout.ms=${SESSION_MS}`];
    const instances: WordcountInstance[] = await Promise.all([cluster.start(undefined, undefined, flags), cluster.start(undefined, undefined, flags)]);
    const [victim, survivor] = instances;
    const victimTasks = await eventually(async () => {
      const [mine, theirs] = await Promise.all(instances.map((instance) => activeTasks(instance.url)));
      return mine !== undefined && theirs !== undefined && [...mine, ...theirs].sort().join() === "0_0,0_1,1_0,1_1" && mine;
    }, { timeoutMs: 60_000, what: "the tasks split" });
    const partition = Number(victimTasks.find((task) => task.startsWith("1_"))!.split("_")[1]);
    const filledAt = Date.now();
    await fill(cluster.producer);
    await eventually(async () => (await countOf(survivor.url)) === KEYS, { timeoutMs: 1_800_000, intervalMs: 500, what: `${KEYS} keys counted` });
    console.log(`standbys=${standbys}: ${KEYS} keys counted in ${((Date.now() - filledAt) / 1000).toFixed(1)} s`);
    if (standbys > 0) {
      await eventually(async () => (await countsPartitions(survivor.url)).some((entry) => entry.standby && entry.partition === partition && entry.lag === 0), { timeoutMs: 600_000, intervalMs: 200, what: "the standby caught up" });
    }
    // A key of the victim's counting task: one its local store holds.
    const key = await eventually(async () => {
      for (let index = 0; index < 200; index++) {
        const answer = await get(victim.url, `k${index}`, {});
        if (answer?.status === "SUCCESS" && answer.result.success[0]?.records.length) return `k${index}`;
      }
      return undefined;
    }, { what: "a key of the victim's partition" });

    // The load: lines of words already counted keep coming throughout.
    let feeding = true;
    const feed = (async () => {
      for (let line = 0; feeding; line++) await cluster.producer.send({ topic: "words", messages: [{ value: `k${line % KEYS} k${(line * 7) % KEYS}` }] });
    })();
    try {
      await stopProcess(victim.process, "SIGKILL");
      const killedAt = Date.now();
      let staleMs: number | undefined;
      if (standbys > 0) {
        await eventually(async () => (await get(survivor.url, key, { allow_stale: true }))?.result.success[0]?.records.length, { timeoutMs: 600_000, intervalMs: 5, what: "a stale answer" });
        staleMs = Date.now() - killedAt;
      }
      await eventually(async () => {
        const answer = await get(survivor.url, key, {});
        return answer?.status === "SUCCESS" && answer.result.success[0]?.standby !== true && answer.result.success[0]?.records.length;
      }, { timeoutMs: 600_000, intervalMs: 5, what: "an answer from the active task on the survivor" });
      const activeMs = Date.now() - killedAt;
      const taken = (await countsPartitions(survivor.url)).find((entry) => entry.partition === partition && !entry.standby);
      return { standbys, staleMs, activeMs, restored: taken?.restore.records_restored ?? -1 };
    } finally {
      feeding = false;
      await feed;
      await stopProcess(survivor.process, "SIGTERM");
    }
  } catch (error) {
    // The broker's own account of what went wrong, to go with the error.
    for (const line of cluster.brokerLogs().filter((entry) => entry.level === "error" || entry.level === "warn").slice(-20)) console.error(JSON.stringify(line));
    throw error;
  } finally {
    await cluster.close();
  }
}

async function main(): Promise<void> {
  const outcomes: Outcome[] = [];
  for (const standbys of [0, 1]) outcomes.push(await run(standbys));
  console.log(`\nfailover of a ${KEYS}-key store (2 partitions), session.timeout.ms=${SESSION_MS}:`);
  for (const { standbys, staleMs, activeMs, restored } of outcomes) {
    const stale = staleMs === undefined ? "" : `, from the standby (allow_stale) after ${staleMs} ms`;
    console.log(`  standbys=${standbys}: its keys answer again from the survivor's active task after ${activeMs} ms (${restored} changelog records restored)${stale}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
