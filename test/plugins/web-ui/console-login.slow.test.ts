import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { startSluice, type RunningSluice } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { launchConsoleBrowser, logIn, screenshot, type ConsoleBrowser, type WatchedPage } from "./console-browser";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * The console of a Sluice with authentication on: its page loads without credentials and shows a login form,
 * no answer ever makes the browser open its own login dialog, every request carries the credentials in a header
 * (the event stream too), and refusals show Sluice's message.
 */
const test = suite<{ sluice: SluiceWithExamples; tokenSluice: RunningSluice; browser: ConsoleBrowser; dir: string }>("logging in to the console");

const PASSWORD = "correct horse battery";
const TOKEN = "s3cret-operator-token";

test.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-console-auth-"));
  const users = await writeUsersFile(context.dir, PASSWORD, { vera: "viewer", otto: "operator" });
  const tokens = path.join(context.dir, "tokens");
  fs.writeFileSync(tokens, `${createHash("sha256").update(TOKEN).digest("hex")}:operator:robot\n`);
  const auth = { "server.auth.failure.delay.ms": "0" };
  context.sluice = await startSluiceWithExamples({ ...auth, "server.auth.mechanism": "basic", "server.auth.users.file": users });
  context.tokenSluice = await startSluice({ overrides: { ...auth, "server.auth.mechanism": "bearer", "server.auth.tokens.file": tokens } });
  context.browser = await launchConsoleBrowser();
});

test.after(async ({ sluice, tokenSluice, browser, dir }) => {
  await browser?.close();
  await sluice?.close();
  await tokenSluice?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Opens `url`, where the console is expected to ask who you are. */
async function openLoggedOut(browser: ConsoleBrowser, url: string): Promise<WatchedPage> {
  const watched = await browser.open(url);
  watched.expect({ status: 401, url: "/api/v1" });
  return watched;
}

const challenges = (watched: WatchedPage) => Promise.all(watched.responses.map((response) => response.headerValue("www-authenticate")));

test("the page of a deep link loads without credentials and shows the login form; no answer asks the browser for Basic credentials", async ({ sluice, browser }) => {
  const watched = await openLoggedOut(browser, `${sluice.url}/ui/applications/wordcount/topology`);
  const { page } = watched;
  await page.getByLabel("User").waitFor();
  assert.ok(await page.getByLabel("Password").isVisible());
  await screenshot(page, "login");
  const shown = (await challenges(watched)).filter((challenge) => challenge !== null);
  assert.ok(shown.length > 0, "the API answered 401");
  assert.equal(shown.filter((challenge) => /^basic/i.test(challenge!)), [], "no Basic challenge, so no browser dialog");
  assert.equal(watched.problems(), []);
  await page.close();
});

test("a wrong password is shown with Sluice's message; the right one opens the deep-linked page, which a reload keeps", async ({ sluice, browser }) => {
  const watched = await openLoggedOut(browser, `${sluice.url}/ui/applications/wordcount/topology`);
  const { page } = watched;
  await logIn(watched, "vera", "wrong password");
  const alert = page.getByRole("alert");
  await alert.waitFor();
  assert.match((await alert.textContent()) ?? "", /^Wrong user name or password: Authentication required/);
  await logIn(watched, "vera", PASSWORD);
  await page.locator("[data-topology-node]").first().waitFor();
  assert.is(await page.locator(".who").textContent(), "veraLog out");
  await page.reload();
  await page.locator("[data-topology-node]").first().waitFor();
  assert.ok(!(await page.getByLabel("Password").isVisible()), "still logged in after a reload");
  assert.ok(watched.requests.every((request) => !request.url.includes(PASSWORD) && !request.url.includes("vera")), "no credentials in a URL");
  assert.equal((await challenges(watched)).filter((challenge) => challenge !== null && /^basic/i.test(challenge)), []);
  assert.equal(watched.problems(), []);
  await page.close();
});

test("the event tail sends the credentials in a header, never in the URL", async ({ sluice, browser }) => {
  const watched = await openLoggedOut(browser, `${sluice.url}/ui/applications/wordcount/events`);
  const { page } = watched;
  await logIn(watched, "vera", PASSWORD);
  const subscribed = await page.waitForRequest((request) => request.url().includes("/subscribe/word-counts"));
  assert.match((await subscribed.allHeaders()).authorization ?? "", /^Basic /);
  assert.ok(!subscribed.url().includes("vera"));
  await page.getByText(/^connected/).waitFor();
  await sluice.produce("words", [{ value: "authenticated" }]);
  await page.locator("table.events tbody th", { hasText: "authenticated" }).waitFor();
  assert.equal(watched.problems(), []);
  await page.close();
});

test("a viewer's restart shows the 403 message naming the role needed; an operator's restart succeeds", async ({ sluice, browser }) => {
  const watched = await openLoggedOut(browser, `${sluice.url}/ui/applications/wordcount/actions`);
  const { page } = watched;
  watched.expect({ status: 403, url: "/api/v1/streams/wordcount/restart" });
  await logIn(watched, "vera", PASSWORD);
  await page.getByRole("button", { name: "Restart wordcount" }).click();
  const alert = page.getByRole("alert");
  await alert.waitFor();
  assert.match((await alert.textContent()) ?? "", "Restart: Not allowed. POST /api/v1/streams/wordcount/restart needs role 'operator'; 'vera' has role 'viewer'");
  await page.getByRole("button", { name: "Log out" }).click();
  await logIn(watched, "otto", PASSWORD);
  await page.getByRole("button", { name: "Restart wordcount" }).click();
  await page.getByText(/^Restarted: /).waitFor();
  assert.equal(watched.problems(), []);
  await page.close();
});

test("Log out forgets the credentials: the login form comes back, also after a reload", async ({ sluice, browser }) => {
  const watched = await openLoggedOut(browser, `${sluice.url}/ui/`);
  const { page } = watched;
  await logIn(watched, "vera", PASSWORD);
  await page.getByRole("heading", { name: "Overview" }).waitFor();
  await page.getByRole("button", { name: "Log out" }).click();
  await page.getByLabel("User").waitFor();
  await page.reload();
  await page.getByLabel("User").waitFor();
  assert.equal(watched.problems(), []);
  await page.close();
});

test("with bearer authentication the form asks for a token; a wrong one is shown, the right one logs in", async ({ tokenSluice, browser }) => {
  const watched = await openLoggedOut(browser, `${tokenSluice.url}/ui/`);
  const { page } = watched;
  const token = page.getByLabel("Token");
  await token.fill("not-the-token");
  await page.getByRole("button", { name: "Log in" }).click();
  await eventually(async () => /^The token was refused: Authentication required/.test((await page.getByRole("alert").textContent()) ?? ""), { what: "the refusal" });
  await token.fill(TOKEN);
  await page.getByRole("button", { name: "Log in" }).click();
  await page.getByRole("heading", { name: "Overview" }).waitFor();
  assert.is(await page.locator(".who").textContent(), "tokenLog out");
  assert.equal(watched.problems(), []);
  await page.close();
});

test("the console's page and files carry the security headers, the API's strict CSP among them", async ({ sluice, browser }) => {
  const watched = await openLoggedOut(browser, `${sluice.url}/ui/`);
  const { page } = watched;
  await page.getByLabel("User").waitFor();
  const files = watched.responses.filter((response) => new URL(response.url()).pathname.startsWith("/ui/"));
  assert.ok(files.length >= 3, "the page, its script and its styles");
  for (const response of files) {
    const headers = await response.allHeaders();
    assert.is(headers["content-security-policy"], "default-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'", response.url());
    assert.is(headers["x-frame-options"], "DENY");
    assert.is(headers["x-content-type-options"], "nosniff");
    assert.is(headers["referrer-policy"], "no-referrer");
  }
  assert.equal(watched.problems(), []);
  await page.close();
});

test.run();
