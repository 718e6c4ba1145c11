/**
 * The browser the console's tests drive: Debian's Chromium through playwright-core (no browser download), one
 * per test file, with a fresh profile. Every page is watched: console errors, page errors, failed requests and
 * error answers fail the test unless it expected them. `SLUICE_SCREENSHOTS=1` (npm run screenshots) also saves
 * the README's screenshots; a normal run writes no file of the repository.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page, type Response } from "playwright-core";
import { REPO_ROOT } from "../../helpers/sluice";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const AXE_SOURCE = path.join(REPO_ROOT, "node_modules", "axe-core", "axe.min.js");
export const SCREENSHOTS = path.join(REPO_ROOT, "plugins", "web-ui", "screenshots");

export interface ExpectedFailure {
  status: number;
  /** A part of the URL. */
  url: string;
}

export interface WatchedPage {
  page: Page;
  /** Every request's method and URL, in order. */
  requests: { method: string; url: string }[];
  /** Every answer, in order. */
  responses: Response[];
  /** Answers with this status whose URL holds this text are part of the test, not failures. */
  expect(failure: ExpectedFailure): void;
  /** The console errors, page errors, failed requests and unexpected error answers so far. */
  problems(): string[];
}

export interface ConsoleBrowser {
  open(url: string): Promise<WatchedPage>;
  context: BrowserContext;
  close(): Promise<void>;
}

export async function launchConsoleBrowser(): Promise<ConsoleBrowser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    // Playwright passes the fresh profile as --user-data-dir itself.
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 860 },
  });
  context.setDefaultTimeout(15_000);
  return {
    context,
    open: async (url) => {
      const watched = watch(await context.newPage());
      await watched.page.goto(url);
      return watched;
    },
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

function watch(page: Page): WatchedPage {
  const requests: WatchedPage["requests"] = [];
  const responses: Response[] = [];
  const expected: ExpectedFailure[] = [];
  const problems: string[] = [];
  const isExpected = (status: number, url: string) => expected.some((failure) => failure.status === status && url.includes(failure.url));
  page.on("request", (request) => requests.push({ method: request.method(), url: request.url() }));
  page.on("response", (response) => {
    responses.push(response);
    if (response.status() >= 400 && !isExpected(response.status(), response.url())) problems.push(`answer ${response.status()} to ${response.request().method()} ${response.url()}`);
  });
  // Leaving a page or a tab aborts its open event stream and polls: a cancellation, not a failure.
  page.on("requestfailed", (request) => {
    if (request.failure()?.errorText !== "net::ERR_ABORTED") problems.push(`request failed: ${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
  });
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    // Chromium logs every error answer as well; the answers are judged above.
    if (message.text().startsWith("Failed to load resource: the server responded with a status of")) return;
    problems.push(`console error: ${message.text()}`);
  });
  return { page, requests, responses, expect: (failure) => expected.push(failure), problems: () => [...problems] };
}

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (injected through the debugger, past the CSP). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(fs.readFileSync(AXE_SOURCE, "utf8"));
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations.map(({ id, impact, help, nodes }) => ({ id, impact, help, nodes: nodes.map(({ target }) => ({ target })) }));
  });
  return violations.filter((violation) => violation.impact === "serious" || violation.impact === "critical");
}

/** Fills the console's login form with a user and password and submits it. */
export async function logIn({ page }: WatchedPage, user: string, password: string): Promise<void> {
  await page.getByLabel("User").fill(user);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Log in" }).click();
}

/** Saves `plugins/web-ui/screenshots/<name>.png` when SLUICE_SCREENSHOTS is set (npm run screenshots); otherwise nothing. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!process.env.SLUICE_SCREENSHOTS) return;
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`) });
}
