import net from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { KERNEL_SECTIONS } from "../../../kernel/config/kernel-config";
import { SluiceConfig } from "../../../kernel/config/sluice-config";
import { HttpServer } from "../../../kernel/http/http-server";
import { httpSecurityOf } from "../../../kernel/http/http-security";
import { badRequest } from "../../../kernel/http/http-error";
import { jsonBody } from "../../../kernel/http/request";
import { createLogger } from "../../../kernel/logger";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";

/*
 * The kernel's request pipeline on its own server: how a handler's answer becomes the response (at once, from
 * a promise, or written by the handler), path parameters, the body as the handler gets it, and the errors.
 */
const test = suite<{ server: HttpServer; url: string; logged: string[] }>("http request pipeline");

test.before(async (context) => {
  context.logged = [];
  const logger = createLogger("debug", {}, (line) => context.logged.push(line));
  context.server = new HttpServer({ bodyLimit: 1024, logger, security: httpSecurityOf(new SluiceConfig(new Map(), KERNEL_SECTIONS), logger) });
  const routes = context.server.routes.registrar({ name: "test", builtIn: true });
  routes.get("/sync", () => ({ answer: "at once" }));
  routes.get("/async", async () => ({ answer: "later" }));
  routes.get("/thenable", () => ({ then: (resolve: (value: unknown) => void) => resolve({ answer: "thenable" }) }));
  routes.get("/itself", (_req, res) => {
    res.writeHead(202, { "Content-Type": "text/plain" });
    res.end("written by the handler");
  });
  routes.get("/refused", () => {
    throw badRequest("no, naming the field");
  });
  routes.get("/rejected", async () => {
    throw new Error("something broke");
  });
  routes.get("/unserializable", async () => ({ big: 1n }));
  routes.get("/echo/:first/:second", (req) => req.params);
  routes.post("/body", (req) => ({ body: jsonBody(req), bytes: req.rawBody.length }));
  const address = await context.server.listen("127.0.0.1", 0);
  context.url = `http://127.0.0.1:${address.port}`;
});

test.after(async ({ server }) => server.close());

test("a value returned at once, from a promise or from a thenable is the JSON answer", async ({ url }) => {
  for (const [path, answer] of [["/sync", "at once"], ["/async", "later"], ["/thenable", "thenable"]]) {
    const res = await http(`${url}${path}`);
    assert.is(res.status, 200, path);
    assert.is(res.headers.get("content-type"), "application/json; charset=utf-8");
    assert.equal(res.json(), { answer }, path);
  }
});

test("a handler that answers itself is left alone", async ({ url }) => {
  const res = await http(`${url}/itself`);
  assert.is(res.status, 202);
  assert.is(res.text, "written by the handler");
});

test("a thrown HttpError is its status with the error shape; a rejection is a logged 500", async ({ url, logged }) => {
  assert.equal((await http(`${url}/refused`)).json(), { error_code: 400, message: "no, naming the field", path: "/refused" });
  const res = await http(`${url}/rejected`);
  assert.equal(res.json(), { error_code: 500, message: "Internal server error", path: "/rejected" });
  assert.ok(logged.some((line) => line.includes('"request failed"') && line.includes("something broke")));
});

test("an answer JSON cannot hold is a 500, not a lost request", async ({ url }) => {
  assert.is((await http(`${url}/unserializable`)).status, 500);
});

test("every finished request is logged at debug with its status and time", async ({ url, logged }) => {
  await http(`${url}/sync?x=1`);
  // Logged when the response has gone to the socket, which the client may see first.
  const line = await eventually(() => logged.map((entry) => JSON.parse(entry)).find((entry) => entry.msg === "request" && entry.path === "/sync"), {
    what: "a request line for /sync",
  });
  assert.is(line.method, "GET");
  assert.is(line.status, 200);
  assert.type(line.ms, "number");
});

test("path parameters are URL-decoded, and a malformed one is a 400 naming it", async ({ url }) => {
  assert.equal((await http(`${url}/echo/plain/with%20space%2Fslash`)).json(), { first: "plain", second: "with space/slash" });
  const res = await http(`${url}/echo/ok/%E0%A4%A`);
  assert.is(res.status, 400);
  assert.match(res.json().message, "Path parameter 'second' is not valid URL encoding");
});

test("a body sent in several pieces reaches the handler whole", async ({ url }) => {
  const text = JSON.stringify({ words: Array.from({ length: 40 }, (_, i) => `word-${i}`) });
  const socket = net.connect(Number(new URL(url).port), "127.0.0.1");
  const answer = new Promise<string>((resolve) => {
    let received = "";
    socket.on("data", (chunk) => (received += chunk));
    socket.on("end", () => resolve(received));
  });
  socket.write(`POST /body HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`);
  for (let at = 0; at < text.length; at += 100) {
    const piece = text.slice(at, at + 100);
    socket.write(`${Buffer.byteLength(piece).toString(16)}\r\n${piece}\r\n`);
    await new Promise((resolve) => setImmediate(resolve));
  }
  socket.end("0\r\n\r\n");
  const response = await answer;
  assert.match(response, /^HTTP\/1\.1 200/);
  assert.equal(JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4)), { body: JSON.parse(text), bytes: Buffer.byteLength(text) });
});

test("a JSON content type with parameters or a +json suffix is taken; another is 415", async ({ url }) => {
  const post = (contentType: string) => http(`${url}/body`, { method: "POST", headers: { "Content-Type": contentType }, body: '{"a":1}' });
  assert.equal((await post("application/json")).json(), { body: { a: 1 }, bytes: 7 });
  assert.equal((await post("Application/JSON; charset=utf-8")).json(), { body: { a: 1 }, bytes: 7 });
  assert.equal((await post("application/vnd.sluice+json")).json(), { body: { a: 1 }, bytes: 7 });
  const refused = await post("text/plain");
  assert.is(refused.status, 415);
  assert.match(refused.json().message, "got 'text/plain'");
});

test("a body over the limit is a 413, and the server goes on answering", async ({ url }) => {
  const res = await http(`${url}/body`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ pad: "x".repeat(2048) }) });
  assert.is(res.status, 413);
  assert.match(res.json().message, "1024 bytes");
  assert.equal((await http(`${url}/sync`)).json(), { answer: "at once" });
});

test.run();
