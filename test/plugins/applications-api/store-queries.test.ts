import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../helpers/eventually";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { query, recordsOf } from "./query-client";

// Every query of docs/api.md#query-request on the example applications' stores, checked against the records produced.
const test = suite("interactive queries on the example stores");

const MINUTE = 60_000;
const T0 = 1_795_000_000_000 - (1_795_000_000_000 % MINUTE);
const window = (key: string, start: number) => ({ key, window_start: start, window_end: start + MINUTE });
const session = (key: string, start: number, end: number) => ({ key, window_start: start, window_end: end });

let sluice: SluiceWithExamples;

test.before(async () => {
  sluice = await startSluiceWithExamples();
  await sluice.produce("words", ["the quick brown fox", "the lazy dog", "The fox"].map((value) => ({ value })));
  const view = (at: number, user: string, page: string) => ({ key: user, value: JSON.stringify({ user, page }), timestamp: String(T0 + at) });
  await sluice.produce("pageviews", [view(1_000, "ann", "/home"), view(2_000, "bob", "/home"), view(3_000, "ann", "/cart"), view(61_000, "ann", "/home")]);
  const click = (at: number, user: string) => ({ key: user, value: "click", timestamp: String(T0 + at) });
  await sluice.produce("clicks", [click(0, "ann"), click(5_000, "bob"), click(MINUTE, "ann"), click(20 * MINUTE, "ann")]);
  const reading = (at: number, sensor: string, celsius: number) => ({ key: sensor, value: JSON.stringify({ celsius }), timestamp: String(T0 + at) });
  await sluice.produce("readings", [reading(0, "s1", 20), reading(1_000, "s1", 21), reading(2_000, "s2", 5)]);
  const settled = async (application: string, store: string, type: string, body: object, total: number) =>
    (await query(sluice.url, application, store, { type, query: body })).result.total === total;
  await eventually(async () => {
    const answer = await query(sluice.url, "wordcount", "counts", { type: "key_value", query: { get: { key: "the" } } });
    return recordsOf(answer)[0]?.value === 3;
  }, { timeoutMs: 20_000, what: "wordcount to count every line" });
  await eventually(() => settled("pageviews", "views-per-minute", "window", { fetch_all: { time_from: T0, time_to: T0 + MINUTE } }, 3), { timeoutMs: 20_000, what: "pageviews windows" });
  await eventually(() => settled("sessions", "user-sessions", "session", { fetch_key_range: { key_from: "ann", key_to: "bob" } }, 3), { timeoutMs: 20_000, what: "sessions" });
  await eventually(async () => {
    const answer = await query(sluice.url, "latest", "latest-readings", { type: "timestamped_key_value", query: { get: { key: "s1" } } });
    return recordsOf(answer)[0]?.timestamp === T0 + 1_000;
  }, { timeoutMs: 20_000, what: "the latest reading of s1" });
});

test.after(async () => {
  await sluice?.close();
});

test("key_value get answers the count of a word, with one success entry for this server", async () => {
  const answer = await query(sluice.url, "wordcount", "counts", { type: "key_value", query: { get: { key: "the" } } });
  assert.is(answer.status, "SUCCESS");
  assert.is(answer.timeout, false);
  assert.is(answer.server, sluice.url.replace("http://", ""));
  assert.type(answer.took, "number");
  assert.equal(answer.result, {
    total: 1,
    failure: [],
    success: [{ server: answer.server, remote: false, total: 1, records: [{ key: "the", value: 3 }] }],
  });
});

test("key_value get of a key never seen is SUCCESS with no record", async () => {
  const answer = await query(sluice.url, "wordcount", "counts", { type: "key_value", query: { get: { key: "cat" } } });
  assert.is(answer.status, "SUCCESS");
  assert.is(answer.result.total, 0);
  assert.equal(recordsOf(answer), []);
});

test("key_value range is inclusive at both ends, in key order", async () => {
  const answer = await query(sluice.url, "wordcount", "counts", { type: "key_value", query: { range: { key_from: "dog", key_to: "lazy" } } });
  assert.equal(recordsOf(answer), [{ key: "dog", value: 1 }, { key: "fox", value: 2 }, { key: "lazy", value: 1 }]);
  assert.is(answer.result.total, 3);
});

test("key_value all returns every word once with its count", async () => {
  const answer = await query(sluice.url, "wordcount", "counts", { type: "key_value", query: { all: {} } });
  const counts = Object.fromEntries(recordsOf(answer).map((record) => [record.key, record.value]));
  assert.equal(counts, { brown: 1, dog: 1, fox: 2, lazy: 1, quick: 1, the: 3 });
  assert.is(answer.result.total, 6);
});

test("key_value count is one record named count", async () => {
  const answer = await query(sluice.url, "wordcount", "counts", { type: "key_value", query: { count: {} } });
  assert.equal(recordsOf(answer), [{ key: "count", value: 6 }]);
});

test("limit stops all after that many records", async () => {
  const answer = await query(sluice.url, "wordcount", "counts", { type: "key_value", set_options: { limit: "2" }, query: { all: {} } });
  assert.equal(recordsOf(answer), [{ key: "brown", value: 1 }, { key: "dog", value: 1 }]);
  assert.is(answer.result.total, 2);
  assert.is(answer.result.success[0].total, 2);
});

test("timestamped_key_value get, range, all and count carry the record's timestamp", async () => {
  const latest = (body: object) => query(sluice.url, "latest", "latest-readings", { type: "timestamped_key_value", query: body });
  assert.equal(recordsOf(await latest({ get: { key: "s1" } })), [{ key: "s1", value: { celsius: 21 }, timestamp: T0 + 1_000 }]);
  const both = [
    { key: "s1", value: { celsius: 21 }, timestamp: T0 + 1_000 },
    { key: "s2", value: { celsius: 5 }, timestamp: T0 + 2_000 },
  ];
  assert.equal(recordsOf(await latest({ range: { key_from: "s1", key_to: "s2" } })), both);
  assert.equal(recordsOf(await latest({ all: {} })), both);
  assert.equal(recordsOf(await latest({ count: {} })), [{ key: "count", value: 2 }]);
});

test("an aggregation's table keeps timestamps, and answers key_value queries with its values alone", async () => {
  const stamped = recordsOf(await query(sluice.url, "wordcount", "counts", { type: "timestamped_key_value", query: { get: { key: "the" } } }));
  assert.is(stamped.length, 1);
  assert.is(stamped[0].value, 3);
  assert.type(stamped[0].timestamp, "number", "the row carries the largest timestamp of the lines counted");
  const plain = recordsOf(await query(sluice.url, "wordcount", "counts", { type: "key_value", query: { range: { key_from: "the", key_to: "the" } } }));
  assert.equal(plain, [{ key: "the", value: 3 }]);
});

test("window fetch answers the window that starts at the time given", async () => {
  const answer = await query(sluice.url, "pageviews", "views-per-minute", { type: "window", query: { fetch: { key: "/home", time: T0 } } });
  assert.equal(recordsOf(answer), [{ key: window("/home", T0), value: 2 }]);
});

test("window fetch_time_range answers the key's windows by start time", async () => {
  const answer = await query(sluice.url, "pageviews", "views-per-minute", {
    type: "window",
    query: { fetch_time_range: { key: "/home", time_from: T0, time_to: T0 + MINUTE } },
  });
  assert.equal(recordsOf(answer), [
    { key: window("/home", T0), value: 2 },
    { key: window("/home", T0 + MINUTE), value: 1 },
  ]);
});

test("window fetch_key_range answers the windows of the keys in range within the time range", async () => {
  const answer = await query(sluice.url, "pageviews", "views-per-minute", {
    type: "window",
    query: { fetch_key_range: { key_from: "/cart", key_to: "/home", time_from: T0, time_to: T0 } },
  });
  assert.equal(recordsOf(answer), [
    { key: window("/cart", T0), value: 1 },
    { key: window("/home", T0), value: 2 },
  ]);
});

test("window fetch_all answers every key's windows within the time range", async () => {
  const answer = await query(sluice.url, "pageviews", "views-per-minute", {
    type: "window",
    query: { fetch_all: { time_from: String(T0 + MINUTE), time_to: T0 + 2 * MINUTE } },
  });
  assert.equal(recordsOf(answer), [{ key: window("/home", T0 + MINUTE), value: 1 }]);
});

test("session fetch answers every session of the key, by end time", async () => {
  const answer = await query(sluice.url, "sessions", "user-sessions", { type: "session", query: { fetch: { key: "ann" } } });
  assert.equal(recordsOf(answer), [
    { key: session("ann", T0, T0 + MINUTE), value: 2 },
    { key: session("ann", T0 + 20 * MINUTE, T0 + 20 * MINUTE), value: 1 },
  ]);
});

test("session fetch_key_range answers the sessions of the keys in range", async () => {
  const answer = await query(sluice.url, "sessions", "user-sessions", { type: "session", query: { fetch_key_range: { key_from: "b", key_to: "bz" } } });
  assert.equal(recordsOf(answer), [{ key: session("bob", T0 + 5_000, T0 + 5_000), value: 1 }]);
});

test.run();
