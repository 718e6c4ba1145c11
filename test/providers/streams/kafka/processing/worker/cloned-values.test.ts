import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BrokerConnectionError, GroupError, isFencedInstance } from "../../../../../../providers/kafka-client";
import { cloneError, reviveBuffers, reviveError } from "../../../../../../providers/streams/kafka/processing/worker/cloned-values";

const test = suite("values across threads: what the structured clone loses, revived");

test("a Buffer that arrives as a Uint8Array is a Buffer again, nested in arrays and plain objects too; other values stay", () => {
  const sent = { key: Buffer.from("k"), value: [Buffer.from([1, 2, 3]), { at: new Date(5), big: 12n, map: new Map([["a", 1]]) }] };
  const arrived = structuredClone(sent);
  assert.not.ok(Buffer.isBuffer(arrived.key), "the clone loses the class");
  const revived = reviveBuffers(arrived) as typeof sent;
  assert.ok(Buffer.isBuffer(revived.key) && Buffer.isBuffer(revived.value[0]));
  assert.equal(revived, sent);
  const rendered = (value: typeof sent) => JSON.stringify(value, (_key, field) => (typeof field === "bigint" ? `${field}n` : field));
  assert.is(rendered(revived), rendered(sent), "answers render as the main thread's do");
});

test("errors keep their class where the application tells them apart: a connection error (retried), a fenced instance", () => {
  const connection = reviveError(structuredClone(cloneError(new BrokerConnectionError("127.0.0.1:9", "ECONNREFUSED"))));
  assert.instance(connection, BrokerConnectionError);
  assert.is(connection.message, "connection to broker 127.0.0.1:9: ECONNREFUSED");
  assert.is((connection as BrokerConnectionError).address, "127.0.0.1:9");
  const fenced = reviveError(structuredClone(cloneError(new GroupError("app", "JoinGroup", 82))));
  assert.instance(fenced, GroupError);
  assert.ok(isFencedInstance(fenced));
  const plain = reviveError(structuredClone(cloneError(new TypeError("boom"))));
  assert.is(`${plain.name}: ${plain.message}`, "TypeError: boom");
  assert.is(reviveError(cloneError("text")).message, "text");
});

test.run();
