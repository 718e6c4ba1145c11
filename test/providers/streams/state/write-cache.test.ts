import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ClassicLevel } from "classic-level";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { WriteCache, type TaskDatabase } from "../../../../providers/streams/state/write-cache";

const test = suite<{ dir: string; db: TaskDatabase }>("the write cache", { dir: "", db: undefined as unknown as TaskDatabase });

test.before.each(async (context) => {
  context.dir = await mkdtemp(join(tmpdir(), "sluice-write-cache-"));
  context.db = new ClassicLevel<Buffer, Buffer>(context.dir, { keyEncoding: "buffer", valueEncoding: "buffer" });
  await context.db.open();
});

test.after.each(async ({ dir, db }) => {
  await db.close();
  await rm(dir, { recursive: true, force: true });
});

const key = (text: string) => Buffer.from(text, "latin1");
const value = (text: string) => Buffer.from(text);

test("known answers from the newest layer, null for a deleted or absent key, undefined when only the database knows", async ({ db }) => {
  await db.put(key("stored"), value("on disk"));
  const cache = new WriteCache(db);
  cache.write(key("a"), value("1"));
  cache.beginCommit();
  cache.write(key("a"), value("2"));
  cache.write(key("gone"), null);
  assert.equal(cache.known("a"), value("2"), "the newest write, over the one being committed");
  assert.is(cache.known("gone"), null);
  assert.is(cache.known("stored"), undefined, "never read: only the database knows");
  cache.endCommit();
  assert.equal(cache.known("a"), value("2"));
});

test("a committed write stays known from the clean cache, a committed delete as null", async ({ db }) => {
  const cache = new WriteCache(db);
  cache.write(key("a"), value("1"));
  cache.write(key("b"), null);
  const layer = cache.beginCommit();
  await db.batch([...layer.values()].map((entry) => (entry.value ? { type: "put" as const, key: entry.key, value: entry.value } : { type: "del" as const, key: entry.key })));
  cache.endCommit();
  assert.equal(cache.known("a"), value("1"));
  assert.is(cache.known("b"), null);
});

test("load reads the database and keeps what it found only when asked: a query's reads leave the clean cache alone", async ({ db }) => {
  await db.put(key("x"), value("from disk"));
  const cache = new WriteCache(db);
  assert.equal(cache.load(key("x"), "x", false), value("from disk"));
  assert.equal(cache.load(key("y"), "y", false), undefined);
  assert.is(cache.known("x"), undefined, "not kept");
  assert.is(cache.known("y"), undefined, "an absence not kept either");
  assert.equal(cache.load(key("x"), "x", true), value("from disk"));
  assert.equal(cache.load(key("y"), "y", true), undefined);
  assert.equal(cache.known("x"), value("from disk"), "kept");
  assert.is(cache.known("y"), null, "an absence kept as null");
});

test("read is known, else the database's value kept in the clean cache", async ({ db }) => {
  await db.put(key("x"), value("from disk"));
  const cache = new WriteCache(db);
  assert.equal(cache.read(key("x")), value("from disk"));
  await db.put(key("x"), value("changed behind the cache"));
  assert.equal(cache.read(key("x")), value("from disk"), "answered by the clean cache");
  cache.write(key("x"), null);
  assert.is(cache.read(key("x")), undefined, "a delete not yet committed");
});

test.run();
