/**
 * What the first load of the console costs: opens /ui/ in Chromium against a Sluice running the examples and
 * prints every answer of the load with its bytes on the wire (gzipped where the server compresses) and its
 * decoded size, the console's files apart from the API answers the page then asks for, against the 250 KB budget.
 *
 *   node dist/bench/console/first-load.js
 */
import { eventually } from "../../test/helpers/eventually";
import { http } from "../../test/helpers/sluice";
import { startSluiceWithExamples } from "../../test/helpers/streams";
import { launchConsoleBrowser } from "../../test/plugins/web-ui/console-browser";

const BUDGET = 250 * 1024;

async function main(): Promise<void> {
  const sluice = await startSluiceWithExamples();
  const browser = await launchConsoleBrowser();
  try {
    await eventually(async () => (await http(`${sluice.url}/health/readiness`)).status === 200, { timeoutMs: 60_000, what: "the examples RUNNING" });
    const watched = await browser.open(`${sluice.url}/ui/`);
    await watched.page.getByText("every application is running").waitFor();
    await watched.page.waitForLoadState("networkidle");
    let files = 0;
    let api = 0;
    for (const response of watched.responses) {
      const { responseBodySize, responseHeadersSize } = await response.request().sizes();
      const decoded = (await response.body()).length;
      const path = new URL(response.url()).pathname;
      const isFile = path.startsWith("/ui/");
      if (isFile) files += responseBodySize;
      else api += responseBodySize;
      console.log(`${path.padEnd(48)} ${String(responseBodySize).padStart(7)} B on the wire (${response.headers()["content-encoding"] ?? "identity"}), ${String(decoded).padStart(7)} B decoded, headers ${responseHeadersSize} B`);
    }
    console.log(`first load of /ui/: console files ${(files / 1024).toFixed(1)} KB compressed (budget ${BUDGET / 1024} KB: ${files < BUDGET ? "within" : "OVER"}), API answers ${(api / 1024).toFixed(1)} KB, total ${((files + api) / 1024).toFixed(1)} KB`);
  } finally {
    await browser.close();
    await sluice.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
