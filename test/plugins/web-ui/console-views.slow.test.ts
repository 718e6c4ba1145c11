import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { deploy, wordcountOn } from "../streams-api/deployments-client";
import { launchConsoleBrowser, screenshot, seriousViolations, type ConsoleBrowser, type WatchedPage } from "./console-browser";

/*
 * The console in Chromium against a Sluice running the four examples: each view shows what the REST API says,
 * live; queries, event tails and actions work from the page; no view has an axe violation that is serious or
 * critical, a console error or a failed request.
 */
const test = suite<{ sluice: SluiceWithExamples; browser: ConsoleBrowser }>("the operator console in a browser");

const APPLICATIONS = ["latest", "pageviews", "sessions", "wordcount"];
const run = promisify(execFile);

const countOf = async (sluice: SluiceWithExamples, word: string) => {
  const answer = await http(`${sluice.url}/api/v1/applications/wordcount/stores/counts`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", query: { get: { key: word } } }),
  });
  return answer.json().result?.success?.[0]?.records?.[0]?.value as number | undefined;
};

test.before(async (context) => {
  context.sluice = await startSluiceWithExamples();
  const { sluice } = context;
  await eventually(async () => {
    const states = await Promise.all(APPLICATIONS.map(async (id) => (await http(`${sluice.url}/api/v1/streams/${id}`)).json().state?.state));
    return states.every((state) => state === "RUNNING");
  }, { timeoutMs: 60_000, what: "the four examples RUNNING" });
  await sluice.produce("words", [{ value: "kafka streams kafka sluice" }]);
  await sluice.produce("pageviews", [{ key: "ann", value: JSON.stringify({ user: "ann", page: "/docs" }) }]);
  await eventually(async () => (await countOf(sluice, "kafka")) === 2, { timeoutMs: 20_000, what: "kafka counted twice" });
  context.browser = await launchConsoleBrowser();
});

test.after(async ({ sluice, browser }) => {
  await browser?.close();
  await sluice?.close();
});

const assertClean = (watched: WatchedPage) => assert.equal(watched.problems(), [], "console errors, failed requests or error answers");

const tab = (watched: WatchedPage, name: string) => watched.page.getByRole("navigation", { name: "wordcount sections" }).getByRole("link", { name, exact: true }).click();

test("/ui redirects to /ui/, and the applications view lists the four examples RUNNING with their version, lag and rate", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui`);
  const { page } = watched;
  assert.is(new URL(page.url()).pathname, "/ui/");
  await page.getByRole("heading", { name: "Overview" }).waitFor();
  await page.getByText("every application is running").waitFor();
  await screenshot(page, "overview");
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Applications" }).click();
  assert.is(new URL(page.url()).pathname, "/ui/applications");
  const rows = page.locator("tr[data-application]");
  await eventually(async () => (await rows.locator(".state").allTextContents()).join() === "RUNNING,RUNNING,RUNNING,RUNNING", { what: "four RUNNING rows" });
  assert.equal(await rows.evaluateAll((all) => all.map((row) => row.getAttribute("data-application"))), APPLICATIONS);
  const cells = await page.locator("tr[data-application=wordcount] td").allTextContents();
  assert.is(cells[2], "1.0.0");
  assert.match(cells[3], /^\d+$/, "total lag");
  assert.match(cells[4], /^[\d.,]+$/, "records/s");
  await screenshot(page, "applications");
  assertClean(watched);
  await page.close();
});

test("wordcount's topology is drawn as a graph with as many nodes as the topology endpoint has, and pans and zooms from the keyboard", async ({ sluice, browser }) => {
  const topology = (await http(`${sluice.url}/api/v1/applications/wordcount/topology`)).json();
  const expected = topology.sub_topologies.reduce((sum: number, sub: { nodes: unknown[] }) => sum + sub.nodes.length, 0);
  const watched = await browser.open(`${sluice.url}/ui/applications`);
  const { page } = watched;
  await page.getByRole("link", { name: "wordcount", exact: true }).click();
  await tab(watched, "Topology");
  assert.is(new URL(page.url()).pathname, "/ui/applications/wordcount/topology");
  const nodes = page.locator("[data-topology-node]");
  await eventually(async () => (await nodes.count()) === expected, { what: `${expected} topology nodes` });
  assert.equal((await nodes.evaluateAll((all) => all.map((node) => node.getAttribute("data-topology-node")))).sort(), topology.sub_topologies.flatMap((sub: { nodes: { name: string }[] }) => sub.nodes.map((node) => node.name)).sort());
  assert.ok((await page.locator(".topology-graph path.edge").count()) >= expected, "edges drawn");
  const transform = () => page.locator(".topology-graph > g").getAttribute("transform");
  const before = await transform();
  await page.locator(".topology-graph").focus();
  await page.keyboard.press("+");
  await eventually(async () => (await transform()) !== before, { what: "zoom from the keyboard" });
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  await page.locator(".node-details dl").waitFor();
  await screenshot(page, "topology");
  assertClean(watched);
  await page.close();
});

test("the lag chart fills with samples and moves; the metrics table has data, filters, and charts a metric live", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/applications/wordcount/offsets`);
  const { page } = watched;
  const chart = page.locator("figure.chart svg").first();
  await eventually(async () => Number(await chart.getAttribute("data-points")) >= 4, { what: "lag samples" });
  await page.locator("table.offsets tbody th", { hasText: /^words$/ }).waitFor();
  const firstPath = () => chart.locator("path.series").first().getAttribute("d");
  const drawn = await firstPath();
  await eventually(async () => (await firstPath()) !== drawn, { what: "the lag chart to move" });
  await screenshot(page, "offsets");

  await tab(watched, "Metrics");
  const rows = page.locator("table.metrics tbody tr");
  await eventually(async () => (await rows.count()) > 10, { what: "metrics rows" });
  await page.getByLabel("Search metrics").fill("process-rate");
  await eventually(async () => {
    const names = await rows.locator("th").evaluateAll((cells) => cells.map((cell) => cell.firstChild?.textContent));
    return names.length > 0 && names.every((name) => name === "process-rate");
  }, { what: "only process-rate rows" });
  await rows.first().getByRole("button", { name: /^Chart/ }).click();
  const charted = page.locator("figure.chart svg");
  await eventually(async () => (await charted.getAttribute("data-series")) === "1" && Number(await charted.getAttribute("data-points")) >= 2, { what: "a charted metric with samples" });
  await screenshot(page, "metrics");
  assertClean(watched);
  await page.close();
});

test("the stores tab shows each store partition's changelog position and restore progress", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/applications/wordcount/stores`);
  const { page } = watched;
  const row = page.locator("tr", { hasText: "wordcount-counts-changelog" });
  await row.waitFor();
  const report = (await http(`${sluice.url}/api/v1/streams/wordcount/stores`)).json();
  assert.is(report.stores[0].name, "counts");
  assert.ok(await row.locator("progress").isVisible());
  assert.is(await row.locator("progress").getAttribute("aria-label"), "Restore of counts partition 0: up to date");
  assertClean(watched);
  await page.close();
});

test("a get in the query console shows the REST answer's count, and its copy-as-curl command returns the same result", async ({ sluice, browser }) => {
  await browser.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: sluice.url });
  const watched = await browser.open(`${sluice.url}/ui/applications/wordcount/query`);
  const { page } = watched;
  await page.getByLabel("key", { exact: true }).fill("kafka");
  await page.getByRole("button", { name: "Run query" }).click();
  const value = page.locator(".query-answer td[data-value]");
  await value.waitFor();
  assert.is(Number(await value.textContent()), await countOf(sluice, "kafka"));
  assert.is(await page.locator(".query-answer [data-total]").getAttribute("data-total"), "1");
  await screenshot(page, "query");

  await page.getByRole("button", { name: "Copy as curl" }).click();
  const shown = await page.locator("[data-curl]").textContent();
  const copied = await page.evaluate<string>("navigator.clipboard.readText()");
  assert.is(copied, shown);
  const { stdout } = await run("sh", ["-c", copied]);
  const answer = JSON.parse(stdout);
  assert.is(answer.status, "SUCCESS");
  // wordcount's counts are a timestamped store (as Kafka Streams' aggregations are): each record carries its timestamp.
  const records = answer.result.success[0].records as { key: string; value: number; timestamp: number }[];
  assert.equal(records.map(({ key, value }) => ({ key, value })), [{ key: "kafka", value: await countOf(sluice, "kafka") }]);
  assert.type(records[0].timestamp, "number", "the record's timestamp");
  assertClean(watched);
  await page.close();
});

test("a query Sluice refuses shows the message of its error body", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/applications/pageviews/query`);
  const { page } = watched;
  watched.expect({ status: 400, url: "/stores/views-per-minute" });
  await page.getByRole("combobox", { name: "Query" }).selectOption("fetch_time_range");
  await page.getByLabel("key", { exact: true }).fill("/docs");
  await page.getByLabel(/^time_from/).fill("2000");
  await page.getByLabel(/^time_to/).fill("1000");
  await page.getByRole("button", { name: "Run query" }).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  const refusal = watched.responses.find((response) => response.url().includes("/stores/views-per-minute"))!;
  assert.ok((await alert.textContent())!.includes((await refusal.json()).message), (await alert.textContent()) ?? "no alert text");
  assertClean(watched);
  await page.close();
});

test("a record written with a Kafka client appears in the event tail within 2 s; pause holds the view, resume shows it", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/applications/wordcount/events`);
  const { page } = watched;
  await page.getByText(/^connected/).waitFor();
  const word = `zebra${Date.now()}`;
  await sluice.produce("words", [{ value: word }]);
  await page.locator("table.events tbody th", { hasText: word }).waitFor({ timeout: 2_000 });
  await page.getByLabel("Filter by key").fill(word);
  await eventually(async () => (await page.locator("table.events tbody tr").count()) === 1, { what: "only the filtered key" });
  await screenshot(page, "events");

  await page.getByRole("button", { name: "Pause" }).click();
  await sluice.produce("words", [{ value: word }]);
  await page.getByText("paused, 1 new since").waitFor();
  assert.is(await page.locator("table.events tbody tr").count(), 1, "the paused view keeps what it showed");
  await page.getByRole("button", { name: "Resume" }).click();
  await eventually(async () => (await page.locator("table.events tbody tr").count()) === 2, { what: "the event received while paused" });
  assertClean(watched);
  await page.close();
});

test("restart from the Actions tab changes since; stop needs the id typed and cleanup is sent as asked", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/applications/wordcount/actions`);
  const { page } = watched;
  const started = () => page.locator("[data-started] time").getAttribute("datetime");
  const before = await started();
  assert.is(before, (await http(`${sluice.url}/api/v1/streams/wordcount`)).json().since);
  await screenshot(page, "actions");
  await page.getByRole("button", { name: "Restart wordcount" }).click();
  await page.getByText(/^Restarted: /).waitFor();
  await eventually(async () => (await started()) !== before, { what: "since to change" });
  assert.is(await started(), (await http(`${sluice.url}/api/v1/streams/wordcount`)).json().since);

  await page.goto(`${sluice.url}/ui/applications/latest/actions`);
  const stopForm = page.locator('form[data-action="stop"]');
  const stop = page.getByRole("button", { name: "Stop latest" });
  const confirmation = stopForm.getByLabel("Type latest to confirm");
  await confirmation.fill("wordcount");
  assert.ok(await stop.isDisabled(), "a wrong id does not confirm");
  await confirmation.fill("latest");
  await stopForm.getByLabel(/cleanup/).check();
  await stop.click();
  await page.getByText(/^Stopped: NOT_RUNNING/).waitFor();
  const sent = watched.requests.filter((request) => request.url.endsWith("/api/v1/streams/latest/stop"));
  assert.equal(sent.map((request) => request.method), ["DELETE"]);
  await page.getByRole("button", { name: "Restart latest" }).click();
  await page.getByText(/^Restarted: /).waitFor();
  await eventually(async () => (await http(`${sluice.url}/api/v1/streams/latest`)).json().state.state === "RUNNING", { timeoutMs: 20_000, what: "latest RUNNING again" });
  assertClean(watched);
  await page.close();
});

test("pause and resume from the Actions tab show PAUSED beside the state; terminate needs the id typed and removes the application", async ({ sluice, browser }) => {
  assert.is((await deploy(sluice.url, wordcountOn("wordcount-ui"))).status, 201);
  const watched = await browser.open(`${sluice.url}/ui/applications/wordcount-ui/actions`);
  const { page } = watched;
  const description = async () => (await http(`${sluice.url}/api/v1/streams/wordcount-ui`)).json();
  await eventually(async () => (await description()).state.state === "RUNNING", { timeoutMs: 20_000, what: "wordcount-ui RUNNING" });
  await page.getByRole("button", { name: "Pause wordcount-ui" }).click();
  await page.getByText(/^Paused: RUNNING \(paused\) since/).waitFor();
  assert.is((await description()).state.paused, true);
  await page.locator(".state-paused", { hasText: "PAUSED" }).waitFor();
  await page.getByRole("button", { name: "Resume wordcount-ui" }).click();
  await page.getByText(/^Resumed: RUNNING since/).waitFor();
  assert.is((await description()).state.paused, undefined);

  const terminateForm = page.locator('form[data-action="terminate"]');
  const terminateButton = page.getByRole("button", { name: "Terminate wordcount-ui" });
  assert.ok(await terminateButton.isDisabled(), "terminate waits for the id");
  // The open application view keeps asking for the instance until it is left: gone, it answers 404.
  watched.expect({ status: 404, url: "/api/v1/streams/wordcount-ui" });
  watched.expect({ status: 404, url: "/api/v1/applications/wordcount-ui" });
  await terminateForm.getByLabel("Type wordcount-ui to confirm").fill("wordcount-ui");
  await terminateForm.getByLabel(/cleanup/).check();
  await terminateButton.click();
  await page.getByText("Terminated: wordcount-ui no longer runs here.").waitFor();
  const sent = watched.requests.filter((request) => request.url.endsWith("/api/v1/streams/wordcount-ui") && request.method === "DELETE");
  assert.is(sent.length, 1);
  assert.not.ok((await http(`${sluice.url}/api/v1/streams`)).json().includes("wordcount-ui"));
  await page.getByRole("link", { name: "Back to the applications" }).click();
  assert.is(new URL(page.url()).pathname, "/ui/applications");
  assertClean(watched);
  await page.close();
});

test("deep links survive a reload, and Back returns to the previous view", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/applications/wordcount/metrics`);
  const { page } = watched;
  await page.locator("table.metrics tbody tr").first().waitFor();
  await page.reload();
  await page.locator("table.metrics tbody tr").first().waitFor();
  await tab(watched, "Instances");
  await page.locator("tbody th", { hasText: "this instance" }).waitFor();
  await page.goBack();
  assert.is(new URL(page.url()).pathname, "/ui/applications/wordcount/metrics");
  await page.locator("table.metrics tbody tr").first().waitFor();
  await page.goto(`${sluice.url}/ui/no/such/page`);
  await page.getByRole("heading", { name: "No such page" }).waitFor();
  assertClean(watched);
  await page.close();
});

const VIEWS: [string, string][] = [
  ["/ui/", "every application is running"],
  ["/ui/applications", "RUNNING"],
  ["/ui/applications/wordcount/description", "Counts the words"],
  ["/ui/applications/wordcount/topology", "sub-topology 1"],
  ["/ui/applications/wordcount/instances", "this instance"],
  ["/ui/applications/wordcount/offsets", "Lag per partition"],
  ["/ui/applications/wordcount/stores", "wordcount-counts-changelog"],
  ["/ui/applications/wordcount/metrics", "process-rate"],
  ["/ui/applications/wordcount/events", "connected"],
  ["/ui/applications/wordcount/query", "Run query"],
  ["/ui/applications/wordcount/actions", "Restart wordcount"],
];

test("axe finds no serious or critical violation on any view, in light and dark mode", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/`);
  const { page } = watched;
  const found: string[] = [];
  for (const scheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const [path, marker] of VIEWS) {
      await page.goto(`${sluice.url}${path}`);
      await page.getByText(marker).first().waitFor();
      for (const violation of await seriousViolations(page)) {
        found.push(`${scheme} ${path}: ${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`);
      }
    }
  }
  await page.goto(`${sluice.url}/ui/applications/wordcount/topology`);
  await page.getByText("sub-topology 1").waitFor();
  await screenshot(page, "topology-dark");
  assert.equal(found, []);
  assertClean(watched);
  await page.close();
});

test.run();
