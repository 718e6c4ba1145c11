/**
 * What an idle Sluice costs: the four example applications RUNNING on the embedded broker with no input, as
 * `npm start` runs them without the feeder. Prints the CPU time of the whole process (every thread) and the
 * main thread's event-loop utilization, per window of `--seconds`.
 *
 *   node dist/bench/idle/idle-bench.js [--seconds=5] [--windows=3]
 */
import { performance } from "node:perf_hooks";
import { eventually } from "../../test/helpers/eventually";
import { startSluiceWithExamples } from "../../test/helpers/streams";
import { numberArgument } from "../bench-arguments";

const SECONDS = numberArgument("seconds", 5);
const WINDOWS = numberArgument("windows", 3);

async function main(): Promise<void> {
  const sluice = await startSluiceWithExamples();
  try {
    await eventually(
      async () => {
        const states = await Promise.all(
          ["wordcount", "pageviews", "sessions", "latest"].map(async (id) => ((await (await fetch(`${sluice.url}/api/v1/streams/${id}`)).json()) as { state: { state: string } }).state.state),
        );
        return states.every((state) => state === "RUNNING");
      },
      { timeoutMs: 60_000, what: "the four examples RUNNING" },
    );
    for (let window = 1; window <= WINDOWS; window++) {
      const cpu = process.cpuUsage();
      const loop = performance.eventLoopUtilization();
      const started = performance.now();
      await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
      const wallMs = performance.now() - started;
      const used = process.cpuUsage(cpu);
      const mainThread = performance.eventLoopUtilization(loop).utilization;
      const processPercent = ((used.user + used.system) / 1000 / wallMs) * 100;
      console.log(`idle window ${window} (${SECONDS} s): process CPU ${processPercent.toFixed(1)} % of one core (all threads), main thread busy ${(mainThread * 100).toFixed(1)} %`);
    }
  } finally {
    await sluice.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
