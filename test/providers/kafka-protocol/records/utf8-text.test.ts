/**
 * The record path's UTF-8 helpers against Buffer's own: the same text and bytes for ASCII and non-ASCII strings on
 * both sides of their short-string loops, and the same refusal of ranges outside the buffer.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { utf8Bytes, utf8Text, writeUtf8 } from "../../../../providers/kafka-protocol/records/utf8-text";

const texts = ["", "k", "k123", "twelve bytes", "thirteen byte", "a".repeat(16), "a".repeat(17), "a".repeat(33), "grüße", "ключ", "\u{1F600}", "ascii then é", "x".repeat(40) + "€"];

const test = suite("utf8 text");

test("utf8Text decodes what Buffer#toString decodes, at any offset in a larger buffer", () => {
  for (const text of texts) {
    const bytes = Buffer.concat([Buffer.from("before"), Buffer.from(text), Buffer.from("after")]);
    const start = 6;
    const end = start + Buffer.byteLength(text);
    assert.is(utf8Text(bytes, start, end), bytes.toString("utf8", start, end), JSON.stringify(text));
  }
});

test("utf8Text of a short range that cuts a character decodes it as Buffer#toString does, with a replacement", () => {
  const bytes = Buffer.from("aü");
  assert.is(utf8Text(bytes, 0, 2), bytes.toString("utf8", 0, 2));
  assert.is(utf8Text(bytes, 0, 2), "a\uFFFD");
});

test("utf8Text refuses a range outside the buffer, short or long", () => {
  const bytes = Buffer.from("short");
  assert.throws(() => utf8Text(bytes, 2, 9), RangeError);
  assert.throws(() => utf8Text(Buffer.from("x".repeat(20)), 0, 30), RangeError);
});

test("utf8Bytes and writeUtf8 give Buffer's UTF-8 of every text", () => {
  for (const text of texts) {
    const length = utf8Bytes(text);
    assert.is(length, Buffer.byteLength(text), JSON.stringify(text));
    const target = Buffer.alloc(length + 4, 0xee);
    assert.is(writeUtf8(target, 2, text, length), 2 + length);
    assert.equal(target.subarray(2, 2 + length), Buffer.from(text), JSON.stringify(text));
    assert.equal([target[0], target[1], target[2 + length], target[3 + length]], [0xee, 0xee, 0xee, 0xee]);
  }
});

test.run();
