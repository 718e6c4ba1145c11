import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import { jsonSerde, longSerde, stringSerde } from "../../../../providers/streams/serdes/builtin-serdes";
import { rangeDeserializer } from "../../../../providers/streams/serdes/range-deserializer";

const test = suite("range deserializer");

const around = (inner: Buffer) => Buffer.concat([Buffer.from("before"), inner, Buffer.from("after")]);

test("the text serdes read a range of a larger buffer as they read the range alone", () => {
  const text = Buffer.from("Grüße, 世界 🌊", "utf8");
  assert.is(rangeDeserializer(stringSerde)(around(text), 6, 6 + text.length), "Grüße, 世界 🌊");
  const json = Buffer.from('{"word":"ünï","count":3}', "utf8");
  assert.equal(rangeDeserializer(jsonSerde)(around(json), 6, 6 + json.length), { word: "ünï", count: 3 });
});

test("any other serde is handed exactly the range's bytes, and a whole buffer as it is", () => {
  const seen: Buffer[] = [];
  const recording: Serde<string> = { name: "recording", serialize: (value) => Buffer.from(value), deserialize: (bytes) => (seen.push(bytes), bytes.toString("hex")) };
  const bytes = around(Buffer.from([1, 2, 3]));
  assert.is(rangeDeserializer(recording)(bytes, 6, 9), "010203");
  assert.is(rangeDeserializer(recording)(bytes, 0, bytes.length), bytes.toString("hex"));
  assert.is(seen[1], bytes);
  assert.is(rangeDeserializer(longSerde)(around(longSerde.serialize(-42)), 6, 14), -42);
});

test("a malformed range fails as the serde fails", () => {
  assert.throws(() => rangeDeserializer(jsonSerde)(around(Buffer.from("{no")), 6, 9), SyntaxError);
  assert.throws(() => rangeDeserializer(longSerde)(Buffer.alloc(12), 0, 4), /expected 8 bytes/);
});

test.run();
