import * as assert from "uvu/assert";
import type { ReadOnlySessionStore, StoreSpec } from "../../../../kernel/contracts/streams/stores";
import { collect, jsonSerde, stateSuite, stringSerde } from "./state-fixture";

const { test, dir } = stateSuite("session stores");

const sessionSpec = (retentionMs?: number): StoreSpec => ({
  name: "user-sessions",
  type: "session",
  keySerde: stringSerde,
  valueSerde: jsonSerde<number>(),
  retentionMs,
});

test("findSessions returns the key's sessions that overlap, by end then start", async () => {
  const state = await dir.open([sessionSpec()]);
  const sessions = state.sessionStore<string, number>("user-sessions");
  sessions.put({ key: "ann", start: 0, end: 100 }, 2);
  sessions.put({ key: "ann", start: 500, end: 900 }, 3);
  await state.commit();
  sessions.put({ key: "ann", start: 2000, end: 2000 }, 1);
  sessions.put({ key: "bob", start: 50, end: 60 }, 1);
  assert.equal(sessions.findSessions("ann", 80, 600), [
    { key: "ann", windowStart: 0, windowEnd: 100, value: 2 },
    { key: "ann", windowStart: 500, windowEnd: 900, value: 3 },
  ]);
  assert.equal(sessions.findSessions("ann", 901, 5000).map((session) => session.windowStart), [2000]);
  assert.equal(sessions.findSessions("ann", 101, 499), []);
  assert.is(sessions.fetchSession("ann", 500, 900), 3);
  assert.is(sessions.fetchSession("ann", 500, 901), undefined);
});

test("merging a session: remove the old ones, put the merged one", async () => {
  const state = await dir.open([sessionSpec()]);
  const sessions = state.sessionStore<string, number>("user-sessions");
  sessions.put({ key: "ann", start: 0, end: 100 }, 2);
  sessions.put({ key: "ann", start: 300, end: 400 }, 1);
  await state.commit();
  const overlapping = sessions.findSessions("ann", 100 - 250, 100 + 250);
  for (const session of overlapping) sessions.remove({ key: session.key, start: session.windowStart, end: session.windowEnd });
  sessions.put({ key: "ann", start: 0, end: 400 }, 4);
  assert.equal(sessions.findSessions("ann", 0, 1000), [{ key: "ann", windowStart: 0, windowEnd: 400, value: 4 }]);
  await state.commit();
  const store = state.readOnly("user-sessions").store as ReadOnlySessionStore<string, number>;
  assert.equal(await collect(store.fetch("ann")), [{ key: "ann", windowStart: 0, windowEnd: 400, value: 4 }]);
  assert.is(await store.approximateNumEntries(), 1);
});

test("queries fetch one key's sessions or a key range's", async () => {
  const state = await dir.open([sessionSpec()]);
  const sessions = state.sessionStore<string, number>("user-sessions");
  for (const key of ["cy", "ann", "bob", "an"]) sessions.put({ key, start: 10, end: 20 }, key.length);
  sessions.put({ key: "ann", start: 30, end: 40 }, 7);
  await state.commit();
  const store = state.readOnly("user-sessions").store as ReadOnlySessionStore<string, number>;
  assert.equal((await collect(store.fetch("ann"))).map((session) => session.windowEnd), [20, 40]);
  assert.equal((await collect(store.fetchKeyRange("an", "bob"))).map((session) => `${session.key}:${session.windowEnd}`), [
    "an:20",
    "ann:20",
    "ann:40",
    "bob:20",
  ]);
  assert.equal((await collect(store.fetchKeyRange(undefined, undefined, { limit: 2 }))).map((session) => session.key), ["an", "ann"]);
});

test("sessions that ended before stream time minus retention are dropped", async () => {
  const state = await dir.open([sessionSpec(1000)]);
  const sessions = state.sessionStore<string, number>("user-sessions");
  sessions.put({ key: "ann", start: 0, end: 100 }, 1);
  await state.commit();
  sessions.put({ key: "bob", start: 5000, end: 5000 }, 1);
  assert.equal(sessions.findSessions("ann", 0, 10_000), []);
  await state.commit();
  const store = state.readOnly("user-sessions").store as ReadOnlySessionStore<string, number>;
  assert.equal((await collect(store.fetchKeyRange(undefined, undefined))).map((session) => session.key), ["bob"]);
  assert.is(await store.approximateNumEntries(), 1);
});

test.run();
