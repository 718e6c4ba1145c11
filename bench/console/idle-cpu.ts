/**
 * What an open, idle console costs Sluice: a `sluice start` process running the four examples with no input, its
 * CPU time (every thread, from /proc) over windows of `--seconds`, alternating windows without a console and
 * windows with consoles open on the Applications view, the busiest (three requests per application every 2 s).
 * One console's cost is small beside the drift of an idle Sluice, so a window with `--pages` consoles open
 * (default 10) shows it above the noise, divided by their number; each console window is compared with the mean
 * of the idle windows on either side. Chromium's own CPU is not counted. The console asks on a fixed period, so
 * the cost is flat in time: an hour costs sixty times a minute.
 *
 *   node dist/bench/console/idle-cpu.js [--seconds=60] [--pages=10]
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eventually } from "../../test/helpers/eventually";
import { http } from "../../test/helpers/sluice";
import { runSluice } from "../../test/helpers/sluice-process";
import { EXAMPLES_PACKAGE } from "../../test/helpers/streams";
import { launchConsoleBrowser, type ConsoleBrowser, type WatchedPage } from "../../test/plugins/web-ui/console-browser";
import { numberArgument } from "../bench-arguments";

const SECONDS = numberArgument("seconds", 60);
const PAGES = numberArgument("pages", 10);
const WARM_UP_SECONDS = 30;
const TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim());

/** User + system CPU seconds the process has used so far (fields 14 and 15 of /proc/<pid>/stat). */
function cpuSeconds(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Percent of one core the process used during a window of `seconds`. */
async function cpuPercent(pid: number, seconds: number): Promise<number> {
  const cpuBefore = cpuSeconds(pid);
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  return ((cpuSeconds(pid) - cpuBefore) / ((performance.now() - started) / 1000)) * 100;
}

async function main(): Promise<void> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-console-cpu-"));
  const sluice = runSluice(["start", `--plugins.packages=${EXAMPLES_PACKAGE}`, "--server.port=0", `--streams.state.dir=${stateDir}`]);
  let browser: ConsoleBrowser | undefined;
  try {
    const url = await sluice.url(60_000);
    await eventually(async () => (await http(`${url}/health/readiness`)).status === 200, { timeoutMs: 60_000, what: "the examples RUNNING" });
    const pid = sluice.child.pid!;
    browser = await launchConsoleBrowser();
    await cpuPercent(pid, WARM_UP_SECONDS);

    const idle = async () => {
      const percent = await cpuPercent(pid, SECONDS);
      console.log(`no console                 ${percent.toFixed(2)} % of one core`);
      return percent;
    };
    const withConsoles = async (count: number) => {
      const pages: WatchedPage[] = [];
      for (let i = 0; i < count; i++) pages.push(await browser!.open(`${url}/ui/applications`));
      await Promise.all(pages.map(({ page }) => page.locator("tr[data-application] .state").first().waitFor()));
      const requestsBefore = pages.reduce((sum, watched) => sum + watched.requests.length, 0);
      const percent = await cpuPercent(pid, SECONDS);
      const requests = pages.reduce((sum, watched) => sum + watched.requests.length, 0) - requestsBefore;
      await Promise.all(pages.map(({ page }) => page.close()));
      console.log(`${String(count).padStart(2)} console(s) open        ${percent.toFixed(2)} % of one core, ${(requests / SECONDS).toFixed(1)} requests/s`);
      return percent;
    };

    const idle1 = await idle();
    const one = await withConsoles(1);
    const idle2 = await idle();
    const many = await withConsoles(PAGES);
    const idle3 = await idle();
    const oneCost = one - (idle1 + idle2) / 2;
    const manyCost = (many - (idle2 + idle3) / 2) / PAGES;
    console.log(`one console, measured alone:             ${oneCost.toFixed(2)} % of one core`);
    console.log(`one console, from ${PAGES} open at once:       ${manyCost.toFixed(2)} % of one core (${((manyCost / 100) * 3600).toFixed(0)} CPU seconds per hour)`);
  } finally {
    await browser?.close();
    sluice.child.kill("SIGTERM");
    await sluice.exited;
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
