import { KERNEL_SECTIONS } from "../../../kernel/config/kernel-config";
import http from "node:http";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import zlib from "node:zlib";
import { SluiceConfig } from "../../../kernel/config/sluice-config";
import { HttpServer } from "../../../kernel/http/http-server";
import { httpSecurityOf } from "../../../kernel/http/http-security";
import { preferredEncoding } from "../../../kernel/http/response-compression";
import { sendText } from "../../../kernel/http/responses";
import { silentLogger } from "../../../kernel/logger";

/*
 * Compressed answers through the kernel's HTTP server, read with node:http (which sends no Accept-Encoding of its
 * own) and decoded with zlib: which answers are compressed and which are left alone, their headers, HEAD, and a
 * streamed answer whose pieces reach the client one by one.
 */
const test = suite<{ server: HttpServer; url: string; release: () => void }>("response compression");

const BIG = { records: Array.from({ length: 200 }, (_, index) => ({ key: `key-${index}`, value: index })) };
const SMALL = { small: true };
const FIRST_PIECE = `{"records":[${JSON.stringify({ key: "first", value: "x".repeat(2_000) })}`;

test.before(async (context) => {
  context.release = () => undefined;
  context.server = new HttpServer({ bodyLimit: 1024, logger: silentLogger, security: httpSecurityOf(new SluiceConfig(new Map(), KERNEL_SECTIONS), silentLogger), compressionThreshold: 1024 });
  const routes = context.server.routes.registrar({ name: "test", builtIn: true });
  routes.get("/big", () => BIG);
  routes.get("/small", () => SMALL);
  routes.get("/text", (_req, res) => sendText(res, 200, "metric 1\n".repeat(500)));
  routes.get("/no-transform", (_req, res) => {
    res.setHeader("Cache-Control", "no-transform");
    return BIG;
  });
  routes.get("/image", (_req, res) => sendText(res, 200, "P".repeat(5_000), "image/png"));
  routes.get("/precompressed", (_req, res) => {
    const body = zlib.gzipSync(JSON.stringify(BIG));
    res.writeHead(200, { "Content-Type": "application/json", "Content-Encoding": "gzip", "Content-Length": body.length });
    res.end(body);
  });
  routes.get("/events", (_req, res) => {
    res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8" });
    res.write(`data: ${"e".repeat(3_000)}\n\n`);
    res.end();
  });
  // One piece, then nothing until the test releases the rest: its piece must reach the client on its own.
  routes.get("/slow", (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json; charset=utf-8" });
    res.write(FIRST_PIECE);
    context.release = () => res.end("]}");
  });
  context.url = `http://127.0.0.1:${(await context.server.listen("127.0.0.1", 0)).port}`;
});

test.after(async ({ server }) => server.close());

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

function get(url: string, acceptEncoding?: string, method = "GET"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method, headers: acceptEncoding === undefined ? {} : { "Accept-Encoding": acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    request.on("error", reject);
    request.end();
  });
}

const decoded = ({ headers, body }: RawAnswer) =>
  (headers["content-encoding"] === "br" ? zlib.brotliDecompressSync(body) : headers["content-encoding"] === "gzip" ? zlib.gunzipSync(body) : body).toString("utf8");

test("a large JSON answer is brotli for a client that accepts it, gzip for one that accepts only gzip, with Vary", async ({ url }) => {
  for (const [accepted, encoding] of [
    ["gzip, deflate, br", "br"],
    ["gzip", "gzip"],
    ["br;q=0.5, gzip;q=0.8", "gzip"],
    ["*", "br"],
    ["x-gzip", "gzip"],
  ]) {
    const answer = await get(`${url}/big`, accepted);
    assert.is(answer.status, 200);
    assert.is(answer.headers["content-encoding"], encoding, accepted);
    assert.is(answer.headers.vary, "Accept-Encoding");
    assert.is(answer.headers["content-length"], undefined);
    assert.ok(answer.body.length < JSON.stringify(BIG).length / 2, `${answer.body.length} bytes`);
    assert.equal(JSON.parse(decoded(answer)), BIG);
  }
});

test("a client accepting no encoding Sluice writes gets the answer as it is, with its length", async ({ url }) => {
  for (const accepted of [undefined, "identity", "deflate", "gzip;q=0, br;q=0", "*;q=0"]) {
    const answer = await get(`${url}/big`, accepted);
    assert.is(answer.headers["content-encoding"], undefined, String(accepted));
    assert.is(answer.headers["content-length"], String(answer.body.length));
    assert.equal(JSON.parse(answer.body.toString("utf8")), BIG);
  }
});

test("small answers, non-text types, no-transform and server-sent events are not compressed", async ({ url }) => {
  const small = await get(`${url}/small`, "gzip, br");
  assert.is(small.headers["content-encoding"], undefined);
  assert.is(small.headers.vary, undefined);
  assert.equal(JSON.parse(small.body.toString("utf8")), SMALL);
  for (const path of ["/image", "/no-transform", "/events"]) {
    const answer = await get(`${url}${path}`, "gzip, br");
    assert.is(answer.headers["content-encoding"], undefined, path);
    assert.ok(answer.body.length > 1024, path);
  }
  const text = await get(`${url}/text`, "gzip");
  assert.is(text.headers["content-encoding"], "gzip");
  assert.is(decoded(text), "metric 1\n".repeat(500));
});

test("an answer that already has a Content-Encoding is left alone", async ({ url }) => {
  const answer = await get(`${url}/precompressed`, "br, gzip");
  assert.is(answer.headers["content-encoding"], "gzip");
  assert.is(answer.headers["content-length"], String(answer.body.length));
  assert.equal(JSON.parse(zlib.gunzipSync(answer.body).toString("utf8")), BIG);
});

test("HEAD answers the headers its GET would have, and no body", async ({ url }) => {
  const head = await get(`${url}/big`, "gzip", "HEAD");
  assert.is(head.status, 200);
  assert.is(head.headers["content-encoding"], "gzip");
  assert.is(head.headers.vary, "Accept-Encoding");
  assert.is(head.body.length, 0);
  const plain = await get(`${url}/big`, undefined, "HEAD");
  assert.is(plain.headers["content-length"], String(JSON.stringify(BIG).length));
});

test("a streamed answer's pieces reach the client decoded one by one, before the answer ends", async (context) => {
  for (const encoding of ["gzip", "br"]) {
    const received = await new Promise<{ first: string; whole: string }>((resolve, reject) => {
      // A deadline, not a wait: without the piece flushed, the answer never ends.
      const deadline = setTimeout(() => reject(new Error(`${encoding}: the first piece did not arrive on its own within 5 s`)), 5_000);
      const request = http.request(`${context.url}/slow`, { headers: { "Accept-Encoding": encoding } }, (res) => {
        assert.is(res.headers["content-encoding"], encoding);
        const decoder = encoding === "br" ? zlib.createBrotliDecompress() : zlib.createGunzip();
        let text = "";
        let first: string | undefined;
        decoder.on("data", (chunk: Buffer) => {
          text += chunk.toString("utf8");
          // The rest is only written once the first piece has arrived whole.
          if (first === undefined && text.length >= FIRST_PIECE.length) {
            first = text;
            context.release();
          }
        });
        decoder.on("end", () => {
          clearTimeout(deadline);
          resolve({ first: first ?? "", whole: text });
        });
        decoder.on("error", reject);
        res.pipe(decoder);
      });
      request.on("error", reject);
      request.end();
    });
    assert.is(received.first, FIRST_PIECE, encoding);
    assert.equal(JSON.parse(received.whole).records[0].key, "first");
  }
});

test("Accept-Encoding is read with its q-values", () => {
  assert.is(preferredEncoding("gzip, deflate, br, zstd"), "br");
  assert.is(preferredEncoding("gzip;q=1.0, br;q=0.9"), "gzip");
  assert.is(preferredEncoding("BR"), "br");
  assert.is(preferredEncoding("deflate, *;q=0.1"), "br");
  assert.is(preferredEncoding("br;q=0, *"), "gzip");
  assert.is(preferredEncoding("compress"), undefined);
  assert.is(preferredEncoding(""), undefined);
});

test.run();
