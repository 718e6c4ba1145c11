import http from "node:http";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { QueryEngine } from "../../../kernel/contracts/query-engine";
import type { ApplicationHandle, StoreHandle } from "../../../kernel/contracts/streams/runtime";
import type { KeyValue, ReadOnlyKeyValueStore } from "../../../kernel/contracts/streams/stores";
import { PeerClient } from "../../../kernel/http/peer-client";
import { CompressibleResponse } from "../../../kernel/http/response-compression";
import { ModuleJsonRenderer } from "../../../kernel/json/module-json-renderer";
import { silentLogger } from "../../../kernel/logger";
import { QueryCatalog } from "../../../plugins/applications-api/query-catalog";
import { executeQuery } from "../../../plugins/applications-api/query-execution";
import { HttpAnswer } from "../../../plugins/applications-api/query-response-writer";
import { parseQueryRequest } from "../../../plugins/applications-api/query-request";
import { QueryTargets } from "../../../plugins/applications-api/query-targets";
import { KeyValueQueryEngine } from "../../../plugins/query-key-value";
import { eventually } from "../../helpers/eventually";

/*
 * Large answers stream from the store's iterator to the socket: the client gets records while the scan is
 * still under way, and a client that goes away stops the scan. The store here pauses half-way through its
 * scan until the test lets it go on, so an implementation that buffered the answer would never send a byte.
 */
const test = suite("streamed query results");

const ENTRIES = 200_000;
const HALF = ENTRIES / 2;

interface Scan {
  pulled: number;
  closed: boolean;
  resume: () => void;
}

let scan: Scan;
let server: http.Server;
let url: string;
/** The same, with the kernel's compressing responses. */
let compressingServer: http.Server;
let compressingUrl: string;

function pausingStore(): ReadOnlyKeyValueStore<unknown, unknown> {
  async function* all(): AsyncIterable<KeyValue<unknown, unknown>> {
    try {
      for (let i = 0; i < ENTRIES; i++) {
        if (i === HALF) await new Promise<void>((resolve) => (scan.resume = resolve));
        scan.pulled++;
        yield { key: `key-${String(i).padStart(6, "0")}`, value: i };
      }
    } finally {
      scan.closed = true;
    }
  }
  return { get: async () => undefined, range: all, all, approximateNumEntries: async () => ENTRIES };
}

const store: StoreHandle = {
  name: "big",
  type: "key_value",
  keySerde: "string",
  valueSerde: "long",
  localPartitions: () => [0],
  queryable: () => true,
  readOnly: () => ({ type: "key_value", store: pausingStore() }),
  keyFromJson: (key) => key,
  partitionOf: () => 0,
};
const application = { id: "big-app", state: "RUNNING", store: () => store } as unknown as ApplicationHandle;
const target = new QueryTargets(new ModuleJsonRenderer([]), () => "test:1").of(application, store.name)!;
/** A query answering whole (one promise) with more than the answer writer buffers before it sends. */
const WHOLE_RECORDS = 3_000;
const wholeAnswer: QueryEngine = {
  storeTypes: ["key_value"],
  queries: [
    {
      name: "whole",
      parameters: [],
      execute: async () => Array.from({ length: WHOLE_RECORDS }, (_, i) => ({ key: `whole-${i}`, value: "v".repeat(50) })),
    },
  ],
};
const catalog = new QueryCatalog([
  { name: "key-value", instance: new KeyValueQueryEngine() },
  { name: "whole-answer", instance: wholeAnswer },
]);

test.before.each(() => {
  scan = { pulled: 0, closed: false, resume: () => undefined };
});

const peers = new PeerClient({ tls: undefined, caFile: undefined, secret: undefined, authenticated: false, presentCertificate: false });

const answerQuery = (req: http.IncomingMessage, res: http.ServerResponse) => {
  let body = "";
  req.on("data", (chunk) => (body += chunk));
  req.on("end", () => {
    const request = parseQueryRequest(JSON.parse(body), store, application.id, catalog, 10_000);
    executeQuery({ target, request, startedAt: Date.now(), logger: silentLogger, peers }, new HttpAnswer(res)).catch(() => res.destroy());
  });
};

async function listen(listening: http.Server): Promise<string> {
  await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
}

test.before(async () => {
  server = http.createServer(answerQuery);
  url = await listen(server);
  compressingServer = http.createServer({ ServerResponse: CompressibleResponse }, (req, res) => {
    (res as CompressibleResponse).compressFor(req.headers["accept-encoding"], 1024);
    answerQuery(req, res);
  });
  compressingUrl = await listen(compressingServer);
});

test.after(async () => {
  for (const listening of [server, compressingServer]) {
    listening.closeAllConnections();
    await new Promise((resolve) => listening.close(resolve));
  }
});

/** A buffering server would send nothing before the scan ends, and the scan waits for this read: bound it. */
async function withinSeconds<T>(work: Promise<T>, seconds: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`nothing within ${seconds} s`)), seconds * 1000);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

const post = (signal?: AbortSignal) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ type: "key_value", query: { all: {} } }), signal });

test("records reach the client while the store is still being scanned, and the whole answer follows", async () => {
  const response = await withinSeconds(post(), 5);
  assert.is(response.headers.get("content-length"), null);
  const reader = response.body!.getReader();
  const first = await withinSeconds(reader.read(), 5);
  assert.ok(!first.done && first.value.length > 0);
  assert.ok(scan.pulled <= HALF && !scan.closed, `the scan had pulled ${scan.pulled} entries`);
  const chunks = [Buffer.from(first.value)];
  await eventually(() => scan.pulled === HALF, { what: "the scan to reach its pause" });
  scan.resume();
  for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(Buffer.from(next.value));
  const answer = JSON.parse(Buffer.concat(chunks).toString("utf8"));
  assert.is(answer.status, "SUCCESS");
  assert.is(answer.server, "test:1");
  assert.is(answer.result.total, ENTRIES);
  assert.is(answer.result.success[0].total, ENTRIES);
  assert.is(answer.result.success[0].records.length, ENTRIES);
  assert.equal(answer.result.success[0].records[ENTRIES - 1], { key: "key-199999", value: 199_999 });
});

test("a whole answer larger than the writer's buffer goes out complete and in order", async () => {
  const response = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ type: "key_value", query: { whole: {} } }) });
  const text = await response.text();
  assert.ok(text.length > 128 * 1024, `the answer has ${text.length} bytes`);
  const answer = JSON.parse(text);
  assert.is(answer.status, "SUCCESS");
  assert.is(answer.result.total, WHOLE_RECORDS);
  assert.equal(answer.result.success[0].records.map((record: { key: string }) => record.key), Array.from({ length: WHOLE_RECORDS }, (_, i) => `whole-${i}`));
});

test("compressed, records still reach the client decoded while the store is being scanned; a client that goes away stops the scan", async () => {
  for (const encoding of ["br", "gzip"]) {
    scan = { pulled: 0, closed: false, resume: () => undefined };
    const response = await withinSeconds(
      new Promise<http.IncomingMessage>((resolve, reject) => {
        const request = http.request(compressingUrl, { method: "POST", headers: { "Content-Type": "application/json", "Accept-Encoding": encoding } }, resolve);
        request.on("error", reject);
        request.end(JSON.stringify({ type: "key_value", query: { all: {} } }));
      }),
      5,
    );
    assert.is(response.headers["content-encoding"], encoding);
    const decoder = encoding === "br" ? zlib.createBrotliDecompress() : zlib.createGunzip();
    const chunks: Buffer[] = [];
    decoder.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<void>((resolve, reject) => decoder.on("end", resolve).on("error", reject));
    response.pipe(decoder);
    await withinSeconds(eventually(() => chunks.length > 0 && scan.pulled === HALF, { what: "decoded records while the scan is paused" }), 5);
    assert.ok(Buffer.concat(chunks).toString("utf8").startsWith('{"server":"test:1","result":{"success":[{"server":"test:1","remote":false,"records":[{"key":"key-000000","value":0}'));
    assert.ok(!scan.closed);
    if (encoding === "gzip") {
      response.destroy();
      scan.resume();
      await eventually(() => scan.closed, { what: "the store iterator to be closed" });
      assert.ok(scan.pulled < ENTRIES, `the scan went on to ${scan.pulled} entries`);
      continue;
    }
    scan.resume();
    await ended;
    const answer = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    assert.is(answer.result.total, ENTRIES);
    assert.equal(answer.result.success[0].records[ENTRIES - 1], { key: "key-199999", value: 199_999 });
  }
});

test("a client that goes away stops the scan", async () => {
  const abort = new AbortController();
  const response = await withinSeconds(post(abort.signal), 5);
  const reader = response.body!.getReader();
  await withinSeconds(reader.read(), 5);
  await eventually(() => scan.pulled === HALF, { what: "the scan to reach its pause" });
  abort.abort();
  await reader.cancel().catch(() => undefined);
  scan.resume();
  await eventually(() => scan.closed, { what: "the store iterator to be closed" });
  assert.ok(scan.pulled < ENTRIES, `the scan went on to ${scan.pulled} entries`);
});

test.run();
