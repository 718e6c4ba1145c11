/**
 * Window, session and retention definitions are checked with Kafka Streams' rules (#35 point 2): by the factories when
 * called, and when the topology is built for definitions written as plain objects. The messages say what Kafka
 * Streams' IllegalArgumentExceptions say.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { KGroupedStream, SessionWindows as SessionWindowsType, SlidingWindows as SlidingWindowsType, TimeWindows as TimeWindowsType } from "../../../kernel/contracts/streams/dsl";
import { SessionWindows, SlidingWindows, TimeWindows, TopologyTestDriver } from "../../../providers/streams";

const test = suite("window definitions: Kafka Streams' rules, when made and when the topology is built");

/** Builds a topology whose grouped stream `window` aggregates; resolves to the error it was refused with, if any. */
async function buildError(window: (grouped: KGroupedStream<string, string>) => void): Promise<Error | undefined> {
  try {
    const driver = await TopologyTestDriver.create((builder) => window(builder.stream<string, string>("in").groupByKey()));
    await driver.close();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

async function refused(window: (grouped: KGroupedStream<string, string>) => void, message: RegExp): Promise<void> {
  const error = await buildError(window);
  assert.ok(error instanceof RangeError, `expected the topology to be refused with ${message}, got ${error}`);
  assert.match(error.message, message);
}

test("the factories refuse what Kafka Streams' factories refuse", () => {
  assert.throws(() => TimeWindows.ofSizeWithNoGrace(0), /Window size \(sizeMs\) must be larger than zero/);
  assert.throws(() => TimeWindows.ofSizeAndGrace(10, -1), /Grace period must not be negative/);
  assert.throws(() => TimeWindows.ofSizeWithNoGrace(10).advanceBy(11), /advancement interval should be more than zero and less than window duration which is 10 ms, but given advancement interval is: 11 ms/);
  assert.throws(() => TimeWindows.ofSizeWithNoGrace(10).advanceBy(0), /but given advancement interval is: 0 ms/);
  assert.throws(() => SlidingWindows.ofTimeDifferenceWithNoGrace(-1), /Window time difference must not be negative/);
  assert.throws(() => SlidingWindows.ofTimeDifferenceAndGrace(10, -5), /Window grace period must not be negative/);
  assert.throws(() => SessionWindows.ofInactivityGapWithNoGrace(0), /Gap time cannot be zero or negative/);
  assert.throws(() => SessionWindows.ofInactivityGapAndGrace(5, -1), /Grace period must not be negative/);
  assert.throws(() => TimeWindows.ofSizeWithNoGrace(1.5), /whole number of milliseconds, got 1.5/);
  assert.equal(TimeWindows.ofSizeAndGrace(10, 2).advanceBy(5), { type: "hopping", sizeMs: 10, advanceMs: 5, graceMs: 2 });
  assert.equal(SlidingWindows.ofTimeDifferenceWithNoGrace(0), { type: "sliding", timeDifferenceMs: 0, graceMs: 0 });
});

test("plain-object definitions are checked when the topology is built", async () => {
  const time = (windows: TimeWindowsType) => (grouped: KGroupedStream<string, string>) => grouped.windowedBy(windows).count({ storeName: "counts" });
  await refused(time({ type: "hopping", sizeMs: 10, advanceMs: 20 }), /less than window duration which is 10 ms, but given advancement interval is: 20 ms/);
  await refused(time({ type: "tumbling", sizeMs: 10, graceMs: -1 }), /Grace period must not be negative/);
  await refused(time({ type: "tumbling", sizeMs: -10 }), /Window size \(sizeMs\) must be larger than zero/);
  const sliding = (windows: SlidingWindowsType) => (grouped: KGroupedStream<string, string>) => grouped.windowedBy(windows).count({ storeName: "counts" });
  await refused(sliding({ type: "sliding", timeDifferenceMs: -1 }), /Window time difference must not be negative/);
  const session = (windows: SessionWindowsType) => (grouped: KGroupedStream<string, string>) => grouped.windowedBy(windows).count({ storeName: "counts" });
  await refused(session({ type: "session", gapMs: 0 }), /Gap time cannot be zero or negative/);
  await refused(session({ type: "session", gapMs: 10, graceMs: -3 }), /Grace period must not be negative/);
});

test("a retention below what keeps every window until it closes is refused; one at or above it is taken", async () => {
  await refused(
    (grouped) => grouped.windowedBy(TimeWindows.ofSizeAndGrace(10, 5)).count({ storeName: "counts", retentionMs: 14 }),
    /The retention period of the window store counts must be no smaller than its window size plus the grace period\. Got size=\[10\], grace=\[5\], retention=\[14\]/,
  );
  await refused(
    (grouped) => grouped.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5)).count({ storeName: "counts", retentionMs: 24 }),
    /window store counts must be no smaller than 2 \* time difference plus the grace period\. Got time difference=\[10\], grace=\[5\], retention=\[24\]/,
  );
  await refused(
    (grouped) => grouped.windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5)).count({ storeName: "counts", retentionMs: 14 }),
    /session store counts must be no smaller than the session inactivity gap plus the grace period\. Got gap=\[10\], grace=\[5\], retention=\[14\]/,
  );
  assert.is(await buildError((grouped) => grouped.windowedBy(TimeWindows.ofSizeAndGrace(10, 5)).count({ storeName: "counts", retentionMs: 15 })), undefined);
  assert.is(await buildError((grouped) => grouped.windowedBy(SlidingWindows.ofTimeDifferenceAndGrace(10, 5)).count({ storeName: "counts", retentionMs: 25 })), undefined);
  assert.is(await buildError((grouped) => grouped.windowedBy(SessionWindows.ofInactivityGapAndGrace(10, 5)).count({ storeName: "counts", retentionMs: 15 })), undefined);
});

test.run();
