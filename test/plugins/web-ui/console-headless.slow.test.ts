import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { launchConsoleBrowser, seriousViolations, type ConsoleBrowser } from "./console-browser";

/* A headless Sluice (server.headless=true): the console shows its actions disabled with the reason and sends none. */
const test = suite<{ sluice: SluiceWithExamples; browser: ConsoleBrowser }>("the console of a headless Sluice");

test.before(async (context) => {
  context.sluice = await startSluiceWithExamples({ "server.headless": "true" });
  await eventually(async () => (await http(`${context.sluice.url}/api/v1/streams/wordcount`)).json().state?.state === "RUNNING", { timeoutMs: 30_000, what: "wordcount RUNNING" });
  context.browser = await launchConsoleBrowser();
});

test.after(async ({ sluice, browser }) => {
  await browser?.close();
  await sluice?.close();
});

test("every action is disabled with the reason, and neither a click nor a submitted form sends a request", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/applications/wordcount/actions`);
  const { page } = watched;
  const restart = page.getByRole("button", { name: "Restart wordcount" });
  const stop = page.getByRole("button", { name: "Stop wordcount" });
  await restart.waitFor();
  for (const action of ["Restart", "Stop", "Pause", "Resume", "Terminate"]) {
    assert.ok(await page.getByRole("button", { name: `${action} wordcount` }).isDisabled(), `${action} disabled`);
  }
  for (const form of ["stop", "terminate"]) {
    assert.ok(await page.locator(`form[data-action="${form}"]`).getByLabel("Type wordcount to confirm").isDisabled(), `${form} confirmation disabled`);
  }
  assert.match((await page.locator("#headless-reason").textContent()) ?? "", "server.headless=true");
  assert.is(await page.locator(".topbar .badge").textContent(), "headless");

  await restart.click({ force: true });
  await stop.click({ force: true });
  await page.locator("form[data-action]").evaluateAll((forms) => forms.forEach((form) => (form as unknown as { requestSubmit(): void }).requestSubmit()));
  // The page's own polls go on: once one more description poll has been sent, any action request would have been too.
  const polls = () => watched.requests.filter((request) => request.url.endsWith("/api/v1/streams/wordcount")).length;
  const sentBefore = polls();
  await eventually(() => polls() > sentBefore, { what: "the next description poll" });
  assert.equal(watched.requests.filter((request) => request.method !== "GET"), [], "no request but GETs");
  assert.equal(await seriousViolations(page), []);
  assert.equal(watched.problems(), []);
  await page.close();
});

test.run();
