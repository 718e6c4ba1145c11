import { suite } from "uvu";
import * as assert from "uvu/assert";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { postQuery } from "./query-client";

// docs/api.md#query-request: every bad request is a 400 whose message names the field; unknown application or store is 404.
const test = suite("query request validation");

let sluice: SluiceWithExamples;

test.before(async () => {
  sluice = await startSluiceWithExamples();
});

test.after(async () => {
  await sluice?.close();
});

const counts = (body: unknown) => postQuery(sluice.url, "wordcount", "counts", body);
const views = (body: unknown) => postQuery(sluice.url, "pageviews", "views-per-minute", body);
const get = { get: { key: "kafka" } };

const rejections: [string, () => ReturnType<typeof postQuery>, string][] = [
  ["a body that is not JSON", () => counts("{not json"), "Request body is not valid JSON"],
  ["no body", () => counts(""), "Request body is required"],
  ["a body that is not an object", () => counts([1]), "Request body must be a JSON object"],
  ["an unknown field", () => counts({ type: "key_value", query: get, options: {} }), "Request body has an unknown field 'options'; expected type, set_options, query"],
  ["a missing type", () => counts({ query: get }), "Field 'type' is required"],
  ["an unknown type", () => counts({ type: "graph", query: get }), "Field 'type' must be one of key_value, timestamped_key_value, versioned_key_value, window, timestamped_window, session, got \"graph\""],
  ["a type other than the store's", () => counts({ type: "window", query: get }), "Field 'type' is 'window' but store 'counts' of application 'wordcount' is a 'timestamped_key_value' store"],
  ["a missing query", () => counts({ type: "key_value" }), "Field 'query' is required"],
  ["a query that is not an object", () => counts({ type: "key_value", query: "get" }), "Field 'query' must be an object"],
  ["no query in the query object", () => counts({ type: "key_value", query: {} }), "Field 'query' must hold exactly one entry, got 0"],
  ["two queries", () => counts({ type: "key_value", query: { get: { key: "a" }, all: {} } }), "Field 'query' must hold exactly one entry, got 2 (get, all)"],
  ["an unknown query", () => counts({ type: "key_value", query: { scan: {} } }), "Unknown query 'query.scan'; queries of store type 'key_value': get, range, all, count"],
  ["a query of another store type", () => counts({ type: "key_value", query: { fetch_all: { time_from: 0, time_to: 1 } } }), "Query 'query.fetch_all' is not valid for store type 'key_value'"],
  ["parameters that are not an object", () => counts({ type: "key_value", query: { all: null } }), "Field 'query.all' must be an object, got null"],
  ["a missing parameter", () => counts({ type: "key_value", query: { range: { key_from: "a" } } }), "Parameter 'query.range.key_to' is required"],
  ["an extra parameter", () => counts({ type: "key_value", query: { get: { key: "a", partition: 0 } } }), "Unknown parameter 'query.get.partition'; 'get' takes key"],
  ["a parameter to a query that takes none", () => counts({ type: "key_value", query: { count: { key: "a" } } }), "Unknown parameter 'query.count.key'; 'count' takes no parameters"],
  ["a key the store's serde cannot take", () => counts({ type: "key_value", query: { get: { key: 42 } } }), "Parameter 'query.get.key' does not fit the key serde of store 'counts'"],
  ["an ill-typed time", () => views({ type: "window", query: { fetch: { key: "/home", time: "noon" } } }), "Parameter 'query.fetch.time' must be an integer (epoch milliseconds), got \"noon\""],
  ["a fractional time", () => views({ type: "window", query: { fetch_all: { time_from: 1.5, time_to: 2 } } }), "Parameter 'query.fetch_all.time_from' must be an integer"],
  ["key_from greater than key_to", () => counts({ type: "key_value", query: { range: { key_from: "z", key_to: "a" } } }), "Parameter 'query.range.key_from' must not be greater than 'query.range.key_to'"],
  ["time_from greater than time_to", () => views({ type: "window", query: { fetch_all: { time_from: 2, time_to: 1 } } }), "Parameter 'query.fetch_all.time_from' must not be greater than 'query.fetch_all.time_to'"],
  ["set_options that is not an object", () => counts({ type: "key_value", set_options: [], query: get }), "Field 'set_options' must be an object"],
  ["an unknown option", () => counts({ type: "key_value", set_options: { retry: 1 }, query: get }), "Field 'set_options' has an unknown field 'retry'; expected retries, retry_backoff_ms, query_timeout_ms, remote_access_allowed, allow_stale, limit"],
  ["negative retries", () => counts({ type: "key_value", set_options: { retries: -1 }, query: get }), "Field 'set_options.retries' must be >= 0, got -1"],
  ["a retry backoff that is not a number", () => counts({ type: "key_value", set_options: { retry_backoff_ms: "soon" }, query: get }), "Option 'set_options.retry_backoff_ms' must be an integer >= 0"],
  ["a zero query timeout", () => counts({ type: "key_value", set_options: { query_timeout_ms: 0 }, query: get }), "Field 'set_options.query_timeout_ms' must be > 0, got 0"],
  ["remote access that is not a boolean", () => counts({ type: "key_value", set_options: { remote_access_allowed: "yes" }, query: get }), "Option 'set_options.remote_access_allowed' must be a boolean, got \"yes\""],
  ["a zero limit", () => counts({ type: "key_value", set_options: { limit: 0 }, query: { all: {} } }), "Field 'set_options.limit' must be > 0, got 0"],
];

for (const [what, send, message] of rejections) {
  test(`${what} is a 400 naming the field`, async () => {
    const response = await send();
    assert.is(response.status, 400, response.text);
    const body = response.json();
    assert.is(body.error_code, 400);
    assert.ok(body.message.startsWith(message), `message was: ${body.message}`);
    assert.match(body.path, /^\/api\/v1\/applications\/(wordcount|pageviews)\/stores\/(counts|views-per-minute)$/);
  });
}

test("a body that is not JSON by its content type is 415", async () => {
  const response = await http(`${sluice.url}/api/v1/applications/wordcount/stores/counts`, { method: "POST", headers: { "Content-Type": "text/plain" }, body: "get kafka" });
  assert.is(response.status, 415);
});

test("options given as strings are accepted", async () => {
  const response = await counts({ type: "key_value", set_options: { retries: "0", retry_backoff_ms: "5", query_timeout_ms: "500", remote_access_allowed: "false", limit: "3" }, query: { all: {} } });
  assert.is(response.status, 200, response.text);
});

test("an unknown application is 404", async () => {
  const response = await postQuery(sluice.url, "nope", "counts", { type: "key_value", query: get });
  assert.is(response.status, 404);
  assert.equal(response.json(), { error_code: 404, message: "Unknown application 'nope'", path: "/api/v1/applications/nope/stores/counts" });
});

test("a store the application's topology does not have is 404", async () => {
  const response = await postQuery(sluice.url, "wordcount", "views-per-minute", { type: "window", query: { fetch_all: { time_from: 0, time_to: 1 } } });
  assert.is(response.status, 404);
  assert.is(response.json().message, "Unknown store 'views-per-minute' in application 'wordcount'");
});

test("GET on a store is 405 and an unknown application's servers record is 404", async () => {
  assert.is((await http(`${sluice.url}/api/v1/applications/wordcount/stores/counts`)).status, 405);
  assert.is((await http(`${sluice.url}/api/v1/applications/nope`)).status, 404);
  assert.is((await http(`${sluice.url}/api/v1/applications/nope/topology`)).status, 404);
});

test.run();
