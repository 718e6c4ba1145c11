import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startSluice, type RunningSluice } from "../../helpers/sluice";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * The console's files over HTTP: the redirect, index.html for the console's own pages, precompressed gzip with
 * per-encoding ETags and revalidation, content-hashed assets cached for good, 404 for a missing file, the first
 * load's size budget, public files under authentication, and server.webui.enable=false.
 */
const test = suite<{ sluice: RunningSluice }>("the console's files");

const FIRST_LOAD_BUDGET = 250 * 1024;

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** node:http, which (unlike fetch) sends no Accept-Encoding of its own and hands back the bytes as sent. */
function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .request(url, { method, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject)
      .end();
  });
}

const referencedFiles = (page: string) => [...page.matchAll(/(?:href|src)="(\/ui\/[^"]+)"/g)].map((match) => match[1]);

test.before(async (context) => {
  context.sluice = await startSluice();
});
test.after(async ({ sluice }) => {
  await sluice?.close();
});

test("/ui redirects to /ui/, keeping the query string", async ({ sluice }) => {
  for (const [from, to] of [["/ui", "/ui/"], ["/ui?tab=x", "/ui/?tab=x"]]) {
    const answer = await get(`${sluice.url}${from}`);
    assert.is(answer.status, 301);
    assert.is(answer.headers.location, to);
  }
});

test("index.html is sent gzipped to a client that accepts gzip, plain to one that does not, each with its own ETag, revalidated every load", async ({ sluice }) => {
  const plain = await get(`${sluice.url}/ui/`);
  const gzipped = await get(`${sluice.url}/ui/`, { "Accept-Encoding": "br;q=1, gzip;q=0.8" });
  const refused = await get(`${sluice.url}/ui/`, { "Accept-Encoding": "gzip;q=0, identity" });
  assert.is(plain.status, 200);
  assert.is(plain.headers["content-type"], "text/html; charset=utf-8");
  assert.is(plain.headers["content-encoding"], undefined);
  assert.is(refused.headers["content-encoding"], undefined);
  assert.is(gzipped.headers["content-encoding"], "gzip");
  assert.equal(gunzipSync(gzipped.body), plain.body);
  assert.ok(gzipped.body.length < plain.body.length);
  for (const answer of [plain, gzipped]) {
    assert.is(answer.headers.vary, "Accept-Encoding");
    assert.is(answer.headers["cache-control"], "no-cache");
    assert.is(answer.headers["content-length"], String(answer.body.length));
  }
  assert.match(plain.headers.etag ?? "", /^"[\w-]+"$/);
  assert.is.not(plain.headers.etag, gzipped.headers.etag);
  assert.match(plain.body.toString(), '<div id="console"></div>');
});

test("an ETag still valid answers 304 without a body; another encoding's ETag does not", async ({ sluice }) => {
  const gzip = { "Accept-Encoding": "gzip" };
  const first = await get(`${sluice.url}/ui/`, gzip);
  const again = await get(`${sluice.url}/ui/`, { ...gzip, "If-None-Match": `"other", ${first.headers.etag}` });
  assert.is(again.status, 304);
  assert.is(again.body.length, 0);
  assert.is(again.headers.etag, first.headers.etag);
  assert.is((await get(`${sluice.url}/ui/`, { "If-None-Match": first.headers.etag! })).status, 200, "the plain body has another ETag");
});

test("the page's script and styles carry their content hash in their name and may be cached for a year", async ({ sluice }) => {
  const page = (await get(`${sluice.url}/ui/`)).body.toString();
  const assets = referencedFiles(page).filter((file) => file.startsWith("/ui/assets/"));
  assert.equal(assets.map((file) => path.extname(file)).sort(), [".css", ".js"]);
  for (const file of assets) {
    assert.match(file, /-[A-Z0-9]{8}\.(js|css)$/);
    const answer = await get(`${sluice.url}${file}`, { "Accept-Encoding": "gzip" });
    assert.is(answer.status, 200);
    assert.is(answer.headers["cache-control"], "public, max-age=31536000, immutable");
    assert.is(answer.headers["content-encoding"], "gzip");
    assert.match(answer.headers["content-type"] ?? "", file.endsWith(".js") ? "text/javascript" : "text/css");
  }
});

test(`the first load (page, script, styles, icon) is under ${FIRST_LOAD_BUDGET / 1024} KB gzipped`, async ({ sluice }) => {
  const gzip = { "Accept-Encoding": "gzip" };
  const page = await get(`${sluice.url}/ui/`, gzip);
  const files = await Promise.all(referencedFiles(gunzipSync(page.body).toString()).map((file) => get(`${sluice.url}${file}`, gzip)));
  const total = [page, ...files].reduce((sum, answer) => sum + answer.body.length, 0);
  assert.ok(total < FIRST_LOAD_BUDGET, `${total} bytes`);
});

test("the console's own pages are index.html; a missing file is a 404 in the API's error shape", async ({ sluice }) => {
  const index = (await get(`${sluice.url}/ui/`)).body;
  for (const page of ["/ui/applications", "/ui/applications/wordcount/topology", "/ui/no/such/page"]) {
    const answer = await get(`${sluice.url}${page}`);
    assert.is(answer.status, 200, page);
    assert.equal(answer.body, index, page);
  }
  const missing = await get(`${sluice.url}/ui/assets/console-NOPE0000.js`);
  assert.is(missing.status, 404);
  assert.equal(JSON.parse(missing.body.toString()), { error_code: 404, message: "The console has no file 'assets/console-NOPE0000.js'", path: "/ui/assets/console-NOPE0000.js" });
  const posted = await get(`${sluice.url}/ui/`, {}, "POST");
  assert.is(posted.status, 405);
});

test("with authentication on, the console's files need no credentials, other methods and the API do", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-console-files-"));
  const users = await writeUsersFile(dir, "secret", { vera: "viewer" });
  const sluice = await startSluice({ overrides: { "server.auth.mechanism": "basic", "server.auth.users.file": users, "server.auth.failure.delay.ms": "0" } });
  try {
    const page = await get(`${sluice.url}/ui/applications`);
    assert.is(page.status, 200);
    for (const file of referencedFiles(page.body.toString())) assert.is((await get(`${sluice.url}${file}`)).status, 200, file);
    assert.is((await get(`${sluice.url}/ui`)).status, 301);
    assert.is((await get(`${sluice.url}/ui/`, {}, "POST")).status, 401);
    assert.is((await get(`${sluice.url}/api/v1`)).status, 401);
  } finally {
    await sluice.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("server.webui.enable=false serves no console", async () => {
  const sluice = await startSluice({ overrides: { "server.webui.enable": "false" } });
  try {
    for (const page of ["/ui", "/ui/", "/ui/applications"]) assert.is((await get(`${sluice.url}${page}`)).status, 404, page);
  } finally {
    await sluice.close();
  }
});

test.run();
