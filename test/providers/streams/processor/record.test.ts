/** Kafka Streams' Record and Kafka's Headers as processors use them: immutable records, headers of their own. */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { Record, RecordHeaders } from "../../../../index";
import { StreamsRecord, type EncodedHeaders } from "../../../../providers/streams/processor/record";

const test = suite("Record and Headers");

const text = (headers: Iterable<{ key: string; value: Buffer | null }>) => [...headers].map(({ key, value }) => [key, value === null ? null : value.toString("utf8")]);

test("headers keep their order and repeated names; lastHeader, headers(key), remove, toArray and iteration", () => {
  const headers = new RecordHeaders().add("a", "1").add({ key: "b", value: Buffer.from("2") }).add("a", null).add("a", Buffer.from("3"));
  assert.equal(text(headers), [["a", "1"], ["b", "2"], ["a", null], ["a", "3"]]);
  assert.equal(text([headers.lastHeader("a")!]), [["a", "3"]]);
  assert.is(headers.lastHeader("missing"), null);
  assert.equal(text(headers.headers("a")), [["a", "1"], ["a", null], ["a", "3"]]);
  headers.remove("a");
  assert.equal(text(headers.toArray()), [["b", "2"]]);
  assert.throws(() => headers.add(undefined as unknown as string, "x"), /string key/);
});

test("with… methods return new records that keep the other fields, each with headers of its own", () => {
  const record = new Record("k", "v", 5, [{ key: "trace", value: Buffer.from("t") }]);
  const changed = record.withValue(1).withKey("k2").withTimestamp(9);
  assert.equal([changed.key, changed.value, changed.timestamp], ["k2", 1, 9]);
  changed.headers.add("extra", "e");
  assert.equal(text(record.headers), [["trace", "t"]]);
  assert.equal(text(changed.headers), [["trace", "t"], ["extra", "e"]]);
  // A record made after a change takes the headers as they are then, and later changes stay apart.
  const later = changed.withValue(2);
  changed.headers.remove("trace");
  assert.equal(text(later.headers), [["trace", "t"], ["extra", "e"]]);
  assert.equal(text(record.withHeaders(new RecordHeaders().add("only", "o")).headers), [["only", "o"]]);
  assert.equal(text(new Record("k", "v", 0).headers), []);
  assert.throws(() => new Record("k", "v", -1), /negative/);
});

test("a consumed record's headers are decoded only when a processor asks, without the runtime's origin stamp", () => {
  let decodes = 0;
  const encoded: EncodedHeaders = {
    headerEntries(hidden) {
      decodes++;
      const all = [{ key: "trace", value: Buffer.from("t") }, { key: "sluice.origin", value: Buffer.from("7.0@in:0") }];
      return all.filter(({ key }) => hidden === undefined || key !== Buffer.from(hidden).toString("latin1"));
    },
  };
  const consumed = new StreamsRecord("k", "v", 1, undefined, encoded);
  const mapped = consumed.withValue("V").withKey("K") as StreamsRecord<string, string>;
  assert.is(decodes, 0);
  assert.equal(text(mapped.headerList()!), [["trace", "t"]]);
  assert.equal(text(mapped.headers), [["trace", "t"]]);
  assert.equal(text(consumed.headers), [["trace", "t"]]);
});

test.run();
