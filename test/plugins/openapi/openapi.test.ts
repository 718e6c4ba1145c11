import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { compileErrors, validate } from "@readme/openapi-parser";
import { Kafka, logLevel } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { KAFKA_BOOTSTRAP } from "../../../kernel/contracts/kafka-bootstrap";
import { ROUTE_CATALOG } from "../../../kernel/contracts/route-catalog";
import { ERROR_BODY_SCHEMA } from "../../../kernel/http/http-error";
import { schemaViolation, type JsonSchema } from "../../../kernel/http/json-schema";
import type { RouteListing } from "../../../kernel/http/route-registry";
import { openApiPath } from "../../../plugins/openapi/openapi-document";
import { eventually } from "../../helpers/eventually";
import { FIXTURES, http, startSluice, type RunningSluice } from "../../helpers/sluice";
import { EXAMPLES_PACKAGE, startSluiceWithExamples } from "../../helpers/streams";
import { writeUsersFile } from "../../helpers/users-file";

/*
 * GET /api/v1/openapi.json against a Sluice serving everything at once — the examples, both fixture REST
 * extensions (one route described, the rest not) and basic authentication: the document passes a real OpenAPI
 * validator, lists exactly the routes the router has, and its schemas match what the routes answer.
 */
type OpenApi = { openapi: string; info: Record<string, string>; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };
type Operation = { summary: string; tags: string[]; parameters?: { name: string; in: string }[]; security?: unknown[]; responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }> };

const PASSWORD = "correct horse battery";
const credentials = (user: string) => ({ Authorization: `Basic ${Buffer.from(`${user}:${PASSWORD}`).toString("base64")}` });
const VIEWER = credentials("vera");
const OPERATOR = credentials("otto");

interface Context {
  sluice: RunningSluice;
  dir: string;
  document: OpenApi;
}

const test = suite<Context>("the OpenAPI document");

test.before(async (context) => {
  context.dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-openapi-"));
  const users = await writeUsersFile(context.dir, PASSWORD, { vera: "viewer", otto: "operator" });
  context.sluice = await startSluice({
    root: path.join(FIXTURES, "extension-app"),
    overrides: {
      "plugins.packages": EXAMPLES_PACKAGE,
      "server.rest.extensions": "true",
      "server.auth.mechanism": "basic",
      "server.auth.users.file": users,
    },
  });
  const res = await http(`${context.sluice.url}/api/v1/openapi.json`, { headers: VIEWER });
  assert.is(res.status, 200, res.text);
  context.document = res.json();
});
test.after(async ({ sluice, dir }) => {
  await sluice?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const operations = (document: OpenApi) => Object.entries(document.paths).flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));

/** What the router serves and the document does not, and what the document lists that the router does not serve. */
function differences(routes: readonly RouteListing[], document: OpenApi): { undocumented: string[]; unserved: string[] } {
  const served = routes.map((route) => `${route.method} ${openApiPath(route.path)}`);
  const documented = operations(document);
  return { undocumented: served.filter((route) => !documented.includes(route)), unserved: documented.filter((operation) => !served.includes(operation)) };
}

test("the document passes @readme/openapi-parser's validation as OpenAPI 3.1", async ({ document }) => {
  assert.is(document.openapi, "3.1.0");
  const result = await validate(structuredClone(document) as never);
  assert.ok(result.valid, result.valid ? "" : compileErrors(result));
  assert.equal(result.warnings, []);
});

test("every route the router serves is in the document, and nothing else", ({ sluice, document }) => {
  const routes = sluice.kernel.components.resolve(ROUTE_CATALOG).routes();
  assert.ok(routes.length >= 35, `${routes.length} routes`);
  assert.equal(differences(routes, document), { undocumented: [], unserved: [] });
  assert.is(operations(document).length, routes.length);
});

test("the comparison reports a served route the document leaves out, and a documented one nobody serves", ({ sluice, document }) => {
  const routes = sluice.kernel.components.resolve(ROUTE_CATALOG).routes();
  const withoutStop = structuredClone(document);
  delete withoutStop.paths["/api/v1/streams/{id}/stop"].delete;
  const extraRoute = { ...routes[0], method: "PATCH", path: "/api/v1/streams/:id/rename" } as RouteListing;
  assert.equal(differences([...routes, extraRoute], withoutStop), { undocumented: ["DELETE /api/v1/streams/{id}/stop", "PATCH /api/v1/streams/{id}/rename"], unserved: [] });
  assert.equal(differences(routes.slice(1), document).unserved, [`${routes[0].method} ${openApiPath(routes[0].path)}`]);
});

test("a REST extension's described route has its declaration; an undescribed one a minimal entry with its parameters", ({ document }) => {
  const hello = document.paths["/hello/{name}"].get;
  assert.is(hello.summary, "Greets by name");
  assert.equal(hello.tags, ["hello"]);
  assert.equal(Object.keys(hello.responses["200"].content!), ["application/json"]);
  const echo = document.paths["/hello-echo"].post;
  assert.match(echo.summary, /^POST \/hello-echo, not described by REST extension 'hello#HelloExtension'$/);
  assert.ok("default" in echo.responses);
  assert.equal(Object.keys(document.paths["/app-route"]), ["get"]);
});

test("paths are templates with every parameter declared; the wildcard of /ui/* is {path}", ({ document }) => {
  for (const [path, methods] of Object.entries(document.paths)) {
    assert.not.match(path, /[:*]/, path);
    const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
    for (const [method, operation] of Object.entries(methods)) {
      const declared = (operation.parameters ?? []).filter((parameter) => parameter.in === "path").map((parameter) => parameter.name);
      assert.equal(declared, inPath, `${method} ${path}`);
    }
  }
  assert.ok(document.paths["/ui/{path}"].get);
});

test("security follows server.auth: basic on every route but the public ones, which also have no 401", ({ document }) => {
  assert.equal(document.components.securitySchemes, { basic: { type: "http", scheme: "basic", description: "Users of server.auth.users.file" } });
  const streams = document.paths["/api/v1/streams/{id}"].get;
  assert.equal(streams.security, [{ basic: [] }]);
  assert.ok(streams.responses["401"] && streams.responses["403"]);
  for (const [path, method] of [["/health", "get"], ["/health/liveness", "get"], ["/ui", "get"], ["/ui/{path}", "get"]]) {
    const operation = document.paths[path][method];
    assert.equal(operation.security, [], path);
    assert.not.ok(operation.responses["401"], path);
  }
});

test("the document itself needs credentials, as other GETs do", async ({ sluice }) => {
  const res = await http(`${sluice.url}/api/v1/openapi.json`);
  assert.is(res.status, 401);
  assert.is(schemaViolation(ERROR_BODY_SCHEMA, res.json()), undefined);
});

test("errors are described with the one error shape; declared statuses are there", ({ document }) => {
  assert.equal(document.components.schemas.Error, ERROR_BODY_SCHEMA);
  const stop = document.paths["/api/v1/streams/{id}/stop"].delete;
  assert.equal(Object.keys(stop.responses), ["200", "400", "401", "403", "404", "409", "413", "415", "500", "503"]);
  for (const status of ["400", "403", "404", "409", "503"]) assert.equal(stop.responses[status].content!["application/json"].schema, { $ref: "#/components/schemas/Error" });
  assert.ok(document.paths["/api/v1/applications/{id}/stores/{name}"].post.responses["415"]);
});

/** The schema the document gives for a 200 JSON answer of `method path`. */
const answerSchema = (document: OpenApi, path: string, method = "get") => document.paths[path][method].responses["200"].content!["application/json"].schema;

test("what the routes answer fits the schemas the document gives them, field for field", async ({ sluice, document }) => {
  const get = async (url: string) => (await http(`${sluice.url}${url}`, { headers: VIEWER })).json();
  await eventually(async () => (await get("/api/v1/streams/wordcount")).state?.state === "RUNNING", { timeoutMs: 20_000, what: "wordcount to run" });
  // Records to count, so offsets have positions and the query has records.
  const kafka = new Kafka({ clientId: "openapi-test", brokers: sluice.kernel.components.resolve(KAFKA_BOOTSTRAP).servers(), logLevel: logLevel.NOTHING });
  const producer = kafka.producer();
  await producer.connect();
  await producer.send({ topic: "words", messages: [{ value: "kafka streams kafka" }] });
  await producer.disconnect();
  await eventually(async () => (await get("/api/v1/streams/wordcount/offsets")).consumers[0]?.positions.length > 0, { timeoutMs: 20_000, what: "a consumed position" });
  const description = await get("/api/v1/streams/wordcount");
  const schema = answerSchema(document, "/api/v1/streams/{id}");
  const optional = Object.keys(schema.properties!).filter((name) => !schema.required!.includes(name));
  assert.equal(Object.keys(description).sort(), Object.keys(schema.properties!).filter((name) => !optional.includes(name)).sort());
  const answers: [string, string][] = [
    ["/api/v1", "/api/v1"],
    ["/api/v1/streams", "/api/v1/streams"],
    ["/api/v1/streams/wordcount", "/api/v1/streams/{id}"],
    ["/api/v1/streams/wordcount/status", "/api/v1/streams/{id}/status"],
    ["/api/v1/streams/wordcount/config", "/api/v1/streams/{id}/config"],
    ["/api/v1/streams/wordcount/offsets", "/api/v1/streams/{id}/offsets"],
    ["/api/v1/streams/wordcount/topology", "/api/v1/streams/{id}/topology"],
    ["/api/v1/streams/wordcount/subscriptions", "/api/v1/streams/{id}/subscriptions"],
    ["/api/v1/streams/wordcount/stores", "/api/v1/streams/{id}/stores"],
    ["/api/v1/streams/wordcount/metrics", "/api/v1/streams/{id}/metrics"],
    ["/api/v1/streams/wordcount/metrics/group/stream-thread-metrics", "/api/v1/streams/{id}/metrics/group/{group}"],
    ["/api/v1/applications", "/api/v1/applications"],
    ["/api/v1/applications/wordcount", "/api/v1/applications/{id}"],
    ["/api/v1/applications/wordcount/topology", "/api/v1/applications/{id}/topology"],
    ["/api/v1/log/level", "/api/v1/log/level"],
    ["/health", "/health"],
    ["/health/liveness", "/health/liveness"],
    ["/health/readiness", "/health/readiness"],
    ["/api/v1/topologies", "/api/v1/topologies"],
    ["/api/v1/topologies/WordCount", "/api/v1/topologies/{name}"],
    ["/api/v1/topologies/WordCount/versions/latest", "/api/v1/topologies/{name}/versions/{version}"],
    ["/hello/ada", "/hello/{name}"],
  ];
  for (const [url, path] of answers) assert.is(schemaViolation(answerSchema(document, path), await get(url)), undefined, url);
  const query = await http(`${sluice.url}/api/v1/applications/wordcount/stores/counts`, {
    method: "POST",
    headers: { ...VIEWER, "Content-Type": "application/json" },
    body: JSON.stringify({ type: "key_value", query: { all: {} } }),
  });
  assert.is(schemaViolation(answerSchema(document, "/api/v1/applications/{id}/stores/{name}", "post"), query.json()), undefined, query.text);
  assert.ok(query.json().result.success[0].records.length > 0, query.text);
  assert.is(schemaViolation(ERROR_BODY_SCHEMA, await get("/api/v1/streams/nope")), undefined);
});

test("deploy, pause, resume and terminate answer as documented", async ({ sluice, document }) => {
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await http(`${sluice.url}${url}`, { method, headers: { ...OPERATOR, "Content-Type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, json: res.json() };
  };
  const fits = (path: string, method: string, status: string, answer: unknown) =>
    assert.is(schemaViolation(document.paths[path][method].responses[status].content!["application/json"].schema, answer), undefined, `${method} ${path}`);
  const deployed = await call("POST", "/api/v1/streams", { topology: "WordCount", config: { "application.id": "wordcount-doc", "input.topic": "doc-words", "output.topic": "doc-counts" } });
  assert.is(deployed.status, 201, JSON.stringify(deployed.json));
  fits("/api/v1/streams", "post", "201", deployed.json);
  const paused = await call("POST", "/api/v1/streams/wordcount-doc/pause");
  assert.is(paused.json.state.paused, true);
  fits("/api/v1/streams/{id}/pause", "post", "200", paused.json);
  fits("/api/v1/streams/{id}/resume", "post", "200", (await call("POST", "/api/v1/streams/wordcount-doc/resume")).json);
  fits("/api/v1/streams/{id}", "delete", "200", (await call("DELETE", "/api/v1/streams/wordcount-doc", { cleanup: true })).json);
  const refused = await call("POST", "/api/v1/streams", { topology: "WordCount", config: {}, replicas: 2 });
  assert.is(refused.status, 400);
  assert.equal(document.paths["/api/v1/streams"].post.responses["400"].content!["application/json"].schema, { $ref: "#/components/schemas/Error" });
  assert.is(schemaViolation(ERROR_BODY_SCHEMA, refused.json), undefined);
});

test.run();

const plain = suite("the OpenAPI document without authentication");

plain("has no security, takes info from server.info.app.*, and is open to anyone", async () => {
  const sluice = await startSluiceWithExamples({ "server.info.app.name": "Word counts", "server.info.app.version": "2.1.0" });
  try {
    const document: OpenApi = (await http(`${sluice.url}/api/v1/openapi.json`)).json();
    assert.equal(document.info.title, "Word counts");
    assert.equal(document.info.version, "2.1.0");
    assert.not.ok("securitySchemes" in document.components);
    assert.not.ok("security" in document.paths["/api/v1/streams"].get);
    assert.not.ok("401" in document.paths["/api/v1/streams"].get.responses);
    assert.ok((await validate(structuredClone(document) as never)).valid);
  } finally {
    await sluice.close();
  }
});

plain("info defaults to Sluice and its version", async () => {
  const sluice = await startSluice();
  try {
    const document: OpenApi = (await http(`${sluice.url}/api/v1/openapi.json`)).json();
    assert.equal([document.info.title, document.info.version], ["Sluice", sluice.kernel.version]);
  } finally {
    await sluice.close();
  }
});

plain("bearer tokens are an http bearer scheme; the instance secret's proof an apiKey scheme on the query routes only", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-openapi-bearer-"));
  const token = "opaque-token-of-the-test";
  fs.writeFileSync(path.join(dir, "tokens"), `${createHash("sha256").update(token).digest("hex")}:viewer\n`);
  fs.writeFileSync(path.join(dir, "peer"), "shared instance secret\n");
  const sluice = await startSluice({
    overrides: { "server.auth.mechanism": "bearer", "server.auth.tokens.file": path.join(dir, "tokens"), "server.auth.peer.token.file": path.join(dir, "peer") },
  });
  try {
    const document: OpenApi = (await http(`${sluice.url}/api/v1/openapi.json`, { headers: { Authorization: `Bearer ${token}` } })).json();
    assert.equal(Object.keys(document.components.securitySchemes), ["bearer", "peer"]);
    assert.equal(document.components.securitySchemes.bearer, { type: "http", scheme: "bearer", description: "Tokens of server.auth.tokens.file, or JWTs whose key is configured" });
    assert.equal((document.components.securitySchemes.peer as Record<string, string>).name, "x-sluice-peer");
    assert.equal(document.paths["/api/v1/streams"].get.security, [{ bearer: [] }]);
    assert.equal(document.paths["/api/v1/applications/{id}/stores/{name}"].post.security, [{ bearer: [] }, { peer: [] }]);
    assert.equal(document.paths["/api/v1/log/level"].put.security, [{ bearer: [] }]);
    assert.ok((await validate(structuredClone(document) as never)).valid);
  } finally {
    await sluice.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

plain.run();
