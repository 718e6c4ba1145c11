/** The consumer protocol's subscription and assignment, against bytes laid out by hand from the protocol guide. */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { decodeAssignment, decodeSubscription, encodeAssignment, encodeSubscription, MalformedMessageError } from "../../../providers/kafka-protocol";

const hex = (text: string) => Buffer.from(text.replace(/\s+/g, ""), "hex");

// version 0 | topics: ["a", "bc"] | user data: "xy"
const SUBSCRIPTION_V0 = "0000 00000002 0001 61 0002 6263 00000002 7879";

test("a subscription is written as version 0: topics, then user data", () => {
  assert.equal(encodeSubscription(["a", "bc"], Buffer.from("xy")), hex(SUBSCRIPTION_V0));
  assert.equal(encodeSubscription([], null), hex("0000 00000000 ffffffff"));
});

test("a cooperative member's subscription is written as version 1, with the partitions it keeps", () => {
  // version 1 | topics ["a"] | no user data | owned: a [1, 2]
  assert.equal(encodeSubscription(["a"], null, { a: [1, 2] }), hex("0001 00000001 0001 61 ffffffff 00000001 0001 61 00000002 00000001 00000002"));
  assert.equal(decodeSubscription(encodeSubscription(["a"], null, {})).ownedPartitions, []);
});

test("a subscription of any version is read, a version newer than the declarations as the newest", () => {
  const v0 = decodeSubscription(hex(SUBSCRIPTION_V0));
  assert.equal({ version: v0.version, topics: v0.topics, userData: v0.userData?.toString() }, { version: 0, topics: ["a", "bc"], userData: "xy" });
  // version 3 | topics ["a"] | no user data | owned: a [1] | generation 9 | rack "r1"
  const v3 = hex("0003 00000001 0001 61 ffffffff 00000001 0001 61 00000001 00000001 00000009 0002 7231");
  assert.equal(decodeSubscription(v3), { version: 3, topics: ["a"], userData: null, ownedPartitions: [{ topic: "a", partitions: [1] }], generationId: 9, rackId: "r1" });
  // version 4, as a newer client may write: the fields of version 3, then one Sluice does not know
  const v4 = Buffer.concat([hex("0004"), v3.subarray(2), hex("00000007")]);
  assert.equal(decodeSubscription(v4).rackId, "r1");
});

test("version-0 fields under a later version's header (kafkajs's AssignerProtocol, Sluice before) are read as version 0", () => {
  const written = hex(SUBSCRIPTION_V0.replace(/^0000/, "0001"));
  const read = decodeSubscription(written);
  assert.equal({ version: read.version, topics: read.topics, userData: read.userData?.toString(), owned: read.ownedPartitions }, { version: 1, topics: ["a", "bc"], userData: "xy", owned: [] });
});

test("a truncated subscription is refused", () => {
  assert.throws(() => decodeSubscription(hex("0000 00000002 0001 61")), (error: unknown) => error instanceof MalformedMessageError);
  assert.throws(() => decodeSubscription(hex("00")), (error: unknown) => error instanceof MalformedMessageError);
});

test("an assignment is written as version 0 and read back by topic; no bytes at all are no partitions", () => {
  // version 0 | [t: [0, 2]] | no user data
  const bytes = hex("0000 00000001 0001 74 00000002 00000000 00000002 ffffffff");
  assert.equal(encodeAssignment({ t: [0, 2] }), bytes);
  assert.equal(decodeAssignment(bytes), { t: [0, 2] });
  assert.equal(decodeAssignment(Buffer.alloc(0)), {});
  assert.throws(() => decodeAssignment(bytes.subarray(0, 12)), (error: unknown) => error instanceof MalformedMessageError);
});

test.run();
