/**
 * How long a deploy takes: against a Sluice running the examples on its embedded broker, deploys a wordcount on
 * topics of its own five times (a new id each time) and prints, for each, the time from sending the POST to its
 * 201 and to the instance's state RUNNING (polled every 5 ms), then the medians. Each instance is terminated
 * with cleanup before the next.
 *
 *   node dist/bench/deploy/deploy-to-running.js [--runs=5]
 */
import { performance } from "node:perf_hooks";
import { eventually } from "../../test/helpers/eventually";
import { http } from "../../test/helpers/sluice";
import { startSluiceWithExamples } from "../../test/helpers/streams";
import { deploy, terminate, wordcountOn } from "../../test/plugins/streams-api/deployments-client";

const runs = Number(process.argv.find((arg) => arg.startsWith("--runs="))?.split("=")[1] ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main(): Promise<void> {
  const sluice = await startSluiceWithExamples();
  try {
    await eventually(async () => (await http(`${sluice.url}/health/readiness`)).status === 200, { timeoutMs: 60_000, what: "the examples RUNNING" });
    const answered: number[] = [];
    const running: number[] = [];
    for (let run = 1; run <= runs; run++) {
      const id = `wordcount-bench-${run}`;
      const start = performance.now();
      const res = await deploy(sluice.url, wordcountOn(id));
      if (res.status !== 201) throw new Error(`deploy answered ${res.status}: ${res.text}`);
      answered.push(performance.now() - start);
      await eventually(async () => (await http(`${sluice.url}/api/v1/streams/${id}`)).json().state.state === "RUNNING", { intervalMs: 5, timeoutMs: 60_000, what: `${id} RUNNING` });
      running.push(performance.now() - start);
      console.log(`${id}: 201 after ${answered[run - 1].toFixed(0)} ms, RUNNING after ${running[run - 1].toFixed(0)} ms`);
      await terminate(sluice.url, id, { cleanup: true });
    }
    console.log(`deploy → 201: median ${median(answered).toFixed(0)} ms; deploy → RUNNING: median ${median(running).toFixed(0)} ms (${runs} runs, new input and output topics each time)`);
  } finally {
    await sluice.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
