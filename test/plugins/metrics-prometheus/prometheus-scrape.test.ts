import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";

// A real Prometheus server (Debian package `prometheus`) scrapes a running wordcount's metrics.
const PROMETHEUS = process.env.PROMETHEUS ?? "prometheus";

const scrape = suite<{ sluice: SluiceWithExamples; prometheus: ChildProcess; api: string; dir: string }>("a Prometheus server scraping Sluice");

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

scrape.before(async (context) => {
  context.sluice = await startSluiceWithExamples();
  await context.sluice.produce("words", [{ value: "scrape me scrape me" }]);
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-prometheus-"));
  const target = new URL(context.sluice.url).host;
  fs.writeFileSync(
    path.join(context.dir, "prometheus.yml"),
    [
      "global:",
      "  scrape_interval: 1s",
      "scrape_configs:",
      "  - job_name: sluice",
      "    metrics_path: /api/v1/streams/wordcount/metrics",
      "    params:",
      "      format: [prometheus]",
      "    static_configs:",
      `      - targets: ["${target}"]`,
      "",
    ].join("\n"),
  );
  const port = await freePort();
  context.api = `http://127.0.0.1:${port}/api/v1`;
  context.prometheus = spawn(
    PROMETHEUS,
    [`--config.file=${path.join(context.dir, "prometheus.yml")}`, `--storage.tsdb.path=${path.join(context.dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
    { stdio: "ignore" },
  );
});

scrape.after(async ({ sluice, prometheus, dir }) => {
  const exited = new Promise((resolve) => prometheus.once("exit", resolve));
  prometheus.kill("SIGTERM");
  await exited;
  await sluice.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

scrape("the target is up and its series carry the application's labels", async ({ api }) => {
  const target = await eventually(
    async () => {
      const body = (await (await fetch(`${api}/targets`)).json()) as any;
      const active = body.data?.activeTargets?.[0];
      return active?.health === "up" ? active : undefined;
    },
    { what: "Prometheus to scrape Sluice successfully", timeoutMs: 30_000 },
  );
  assert.is(target.lastError, "");
  const series = await eventually(
    async () => {
      const body = (await (await fetch(`${api}/query?query=${encodeURIComponent('streams_records_consumed_total{application_id="wordcount"}')}`)).json()) as any;
      return body.data?.result?.length > 0 ? body.data.result : undefined;
    },
    { what: "a stored series of the consumer metrics", timeoutMs: 15_000 },
  );
  assert.is(series[0].metric.job, "sluice");
  assert.is(series[0].metric.group, "consumer-fetch-manager-metrics");
});

scrape.run();
