import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { http, startSluice, type RunningSluice } from "../../helpers/sluice";
import { launchConsoleBrowser, logIn, screenshot, seriousViolations, type ConsoleBrowser } from "./console-browser";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * The console's Schemas view in Chromium, against the registry built into Sluice with authentication on: the subjects
 * with their type, latest version, id and compatibility level; a subject's versions and the line diff between two of
 * them; the level, which a viewer is refused and an admin sets. Every request carries the console's session
 * credentials; no page has an axe violation that is serious or critical, a console error or an unexpected failure.
 */
const test = suite<{ sluice: RunningSluice; browser: ConsoleBrowser; dir: string }>("the console's Schemas view in a browser");

const PASSWORD = "correct horse battery";
const ORDER = { type: "record", name: "Order", fields: [{ name: "id", type: "string" }] };
const ORDER_V2 = { ...ORDER, fields: [...ORDER.fields, { name: "note", type: ["null", "string"], default: null }] };
const PAYMENT = { type: "enum", name: "Method", symbols: ["CARD", "CASH"] };
const asAdmin = { authorization: `Basic ${Buffer.from(`ada:${PASSWORD}`).toString("base64")}`, "content-type": "application/json" };

test.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-console-schemas-"));
  const users = await writeUsersFile(context.dir, PASSWORD, { vera: "viewer", ada: "admin" });
  context.sluice = await startSluice({ overrides: { "server.auth.failure.delay.ms": "0", "server.auth.mechanism": "basic", "server.auth.users.file": users } });
  const registry = `${context.sluice.url}/schema-registry`;
  const send = (method: string, route: string, body: unknown) => http(`${registry}${route}`, { method, headers: asAdmin, body: JSON.stringify(body) });
  for (const [subject, schema] of [["orders-value", ORDER], ["orders-value", ORDER_V2], ["payments-value", PAYMENT]] as const) {
    const answer = await send("POST", `/subjects/${subject}/versions`, { schema: JSON.stringify(schema) });
    assert.is(answer.status, 200, answer.text);
  }
  await send("PUT", "/config/payments-value", { compatibility: "FULL" });
  context.browser = await launchConsoleBrowser();
});

test.after(async ({ sluice, browser, dir }) => {
  await browser?.close();
  await sluice?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("a viewer sees the subjects with type, latest version, id and level, a subject's versions and their diff, and is refused setting the level", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/schemas`);
  watched.expect({ status: 401, url: "/api/v1" });
  watched.expect({ status: 403, url: "/schema-registry/config/orders-value" });
  const { page } = watched;
  await logIn(watched, "vera", PASSWORD);
  await page.getByRole("heading", { name: "Schemas" }).waitFor();
  const cells = (subject: string) => page.locator(`tr[data-subject="${subject}"] td`).allTextContents();
  await eventually(async () => (await cells("payments-value")).length === 4, { what: "the payments-value row" });
  const paymentId = (await http(`${sluice.url}/schema-registry/subjects/payments-value/versions/latest`, { headers: asAdmin })).json().id;
  assert.equal(await cells("payments-value"), ["AVRO", "1", String(paymentId), "FULL"]);
  assert.equal((await cells("orders-value"))[3], "BACKWARD", "the global level where the subject has none");
  assert.is(await page.locator("[data-global-level]").textContent(), "BACKWARD");
  assert.equal(await seriousViolations(page), []);
  await screenshot(page, "schemas");

  await page.getByRole("link", { name: "orders-value", exact: true }).click();
  assert.is(new URL(page.url()).pathname, "/ui/schemas/orders-value");
  await page.getByRole("heading", { name: "orders-value" }).waitFor();
  await eventually(async () => (await page.locator("tr[data-version]").count()) === 2, { what: "two versions" });
  const diff = page.locator("pre.schema-diff");
  assert.equal([await diff.getAttribute("data-from"), await diff.getAttribute("data-to")], ["1", "2"], "the latest two by default");
  assert.match((await diff.locator("ins").allTextContents()).join("\n"), /"note"/, "the new field shows as added");
  assert.equal(await diff.locator("del").allTextContents(), [], "nothing of version 1 is gone");
  assert.is(await page.locator("[data-diff-summary]").textContent(), `${await diff.locator("ins").count()} lines added, 0 removed`);
  await page.getByLabel("From version").selectOption("2");
  await eventually(async () => (await diff.locator("ins, del").count()) === 0, { what: "no change from a version to itself" });
  assert.is(await page.locator("[data-diff-summary]").textContent(), "0 lines added, 0 removed");
  assert.equal(await seriousViolations(page), []);
  await page.getByLabel("From version").selectOption("1");
  await screenshot(page, "schema-diff");

  await page.getByLabel("New level").selectOption("FULL_TRANSITIVE");
  await page.getByRole("button", { name: "Set level" }).click();
  await eventually(async () => /^Set level: Not allowed\./.test((await page.getByRole("alert").textContent()) ?? ""), { what: "the refusal" });
  assert.equal((await http(`${sluice.url}/schema-registry/config/orders-value?defaultToGlobal=true`, { headers: asAdmin })).json(), { compatibilityLevel: "BACKWARD" });
  const registryRequests = watched.requests.filter((request) => request.url.includes("/schema-registry/"));
  assert.ok(registryRequests.length > 0);
  assert.equal(watched.problems(), []);
  await page.close();
});

test("an admin sets a subject's compatibility level from the console", async ({ sluice, browser }) => {
  const watched = await browser.open(`${sluice.url}/ui/schemas/orders-value`);
  watched.expect({ status: 401, url: "/api/v1" });
  const { page } = watched;
  await logIn(watched, "ada", PASSWORD);
  await page.getByRole("heading", { name: "orders-value" }).waitFor();
  await page.getByLabel("New level").selectOption("FULL_TRANSITIVE");
  await page.getByRole("button", { name: "Set level" }).click();
  await eventually(async () => (await page.locator("[data-level]").textContent()) === "FULL_TRANSITIVE", { what: "the new level shown" });
  assert.equal((await http(`${sluice.url}/schema-registry/config/orders-value`, { headers: asAdmin })).json(), { compatibilityLevel: "FULL_TRANSITIVE" });
  assert.equal(watched.problems(), []);
  await page.close();
});

test.run();
