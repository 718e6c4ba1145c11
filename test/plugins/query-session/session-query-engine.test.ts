import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { QueryDefinition } from "../../../kernel/contracts/query-engine";
import { answerRecords } from "../query-engines/answer-records";
import type { ReadOnlySessionStore, ReadOnlyStore, WindowedEntry } from "../../../kernel/contracts/streams/stores";
import { SessionQueryEngine } from "../../../plugins/query-session";

const test = suite("session query engine");

type Session = WindowedEntry<unknown, unknown>;

function sessionStore(sessions: Session[]): ReadOnlySessionStore<unknown, unknown> {
  async function* scan(match: (session: Session) => boolean, limit?: number): AsyncIterable<Session> {
    let given = 0;
    for (const session of sessions) {
      if (!match(session)) continue;
      if (limit !== undefined && given++ >= limit) return;
      yield session;
    }
  }
  return {
    fetch: (key, options) => scan((session) => session.key === key, options?.limit),
    fetchKeyRange: (from, to, options) => scan((session) => (session.key as string) >= (from as string) && (session.key as string) <= (to as string), options?.limit),
    approximateNumEntries: async () => sessions.length,
  };
}

const engine = new SessionQueryEngine();
const query = (name: string) => engine.queries.find((definition) => definition.name === name) as QueryDefinition;

const sessions: Session[] = [
  { key: "ann", windowStart: 0, windowEnd: 60_000, value: 2 },
  { key: "ann", windowStart: 1_200_000, windowEnd: 1_200_000, value: 1 },
  { key: "bob", windowStart: 5_000, windowEnd: 5_000, value: 1 },
];

test("declares the session type, fetch routed by key and fetch_key_range", () => {
  assert.equal(engine.storeTypes, ["session"]);
  assert.equal(engine.queries.map((definition) => [definition.name, definition.parameters.map((p) => p.name), definition.routingKey ?? null]), [
    ["fetch", ["key"], "key"],
    ["fetch_key_range", ["key_from", "key_to"], null],
  ]);
});

test("fetch answers the key's sessions with their start and end as the window", async () => {
  const stores: ReadOnlyStore[] = [{ type: "session", store: sessionStore(sessions) }];
  assert.equal(await answerRecords(query("fetch").execute(stores, { key: "ann" }, undefined)), [
    { key: { key: "ann", window_start: 0, window_end: 60_000 }, value: 2 },
    { key: { key: "ann", window_start: 1_200_000, window_end: 1_200_000 }, value: 1 },
  ]);
});

test("fetch_key_range over two partitions stops at the limit", async () => {
  const stores: ReadOnlyStore[] = [
    { type: "session", store: sessionStore(sessions.slice(0, 2)) },
    { type: "session", store: sessionStore(sessions.slice(2)) },
  ];
  const records = await answerRecords(query("fetch_key_range").execute(stores, { key_from: "a", key_to: "c" }, 2));
  assert.equal(records.map((record) => (record.key as { key: string }).key), ["ann", "ann"]);
  assert.is((await answerRecords(query("fetch_key_range").execute(stores, { key_from: "a", key_to: "c" }, undefined))).length, 3);
});

test.run();
