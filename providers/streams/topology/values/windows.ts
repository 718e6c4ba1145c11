/**
 * Kafka Streams' window factories, as a topology imports them from "sluice" (TimeWindows, SlidingWindows,
 * SessionWindows, EmitStrategy), and the rules every window definition is checked against when the topology is built,
 * whether made by a factory or written as a plain object. The errors say what Kafka Streams' say.
 */
import type {
  EmitStrategy as EmitStrategyType,
  SessionWindows as SessionWindowsType,
  SlidingWindows as SlidingWindowsType,
  TimeWindows as TimeWindowsType,
} from "../../../../kernel/contracts/streams/dsl";

export type TimeWindows = TimeWindowsType;
export type SlidingWindows = SlidingWindowsType;
export type SessionWindows = SessionWindowsType;
export type EmitStrategy = EmitStrategyType;

/** A duration in milliseconds must be a whole, finite number (Kafka Streams' validateMillisecondDuration). */
function milliseconds(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) throw new RangeError(`${what} must be a whole number of milliseconds, got ${String(value)}`);
  return value;
}

/** Checks a time window definition; returns its advance (the size for tumbling windows). */
export function checkTimeWindows(windows: TimeWindows): number {
  const sizeMs = milliseconds(windows.sizeMs, "the window size (sizeMs)");
  if (sizeMs <= 0) throw new RangeError("Window size (sizeMs) must be larger than zero.");
  const advanceMs = windows.type === "hopping" ? milliseconds(windows.advanceMs, "the window advance (advanceMs)") : sizeMs;
  if (advanceMs <= 0 || advanceMs > sizeMs) {
    throw new RangeError(
      `Window advancement interval should be more than zero and less than window duration which is ${sizeMs} ms, but given advancement interval is: ${advanceMs} ms`,
    );
  }
  checkGrace(windows.graceMs, "Grace period must not be negative.");
  return advanceMs;
}

/** Checks time or sliding windows. */
export function checkWindows(windows: TimeWindows | SlidingWindows): void {
  if (windows.type === "sliding") checkSlidingWindows(windows);
  else checkTimeWindows(windows);
}

export function checkSlidingWindows(windows: SlidingWindows): void {
  if (milliseconds(windows.timeDifferenceMs, "the time difference (timeDifferenceMs)") < 0) throw new RangeError("Window time difference must not be negative.");
  checkGrace(windows.graceMs, "Window grace period must not be negative.");
}

export function checkSessionWindows(windows: SessionWindows): void {
  if (milliseconds(windows.gapMs, "the inactivity gap (gapMs)") <= 0) throw new RangeError("Gap time cannot be zero or negative.");
  checkGrace(windows.graceMs, "Grace period must not be negative.");
}

function checkGrace(graceMs: number | undefined, message: string): void {
  if (graceMs !== undefined && milliseconds(graceMs, "the grace period (graceMs)") < 0) throw new RangeError(message);
}

/**
 * A windowed store's retention: Kafka Streams' default (what keeps every window until it closes) unless given, and
 * never less than that (a topology asking for less is refused, as Kafka Streams refuses it).
 */
export function windowRetention(storeName: string, minimumMs: number, givenMs: number | undefined, what: () => string): number {
  if (givenMs === undefined) return minimumMs;
  if (milliseconds(givenMs, `the retention of store '${storeName}'`) < minimumMs) throw new RangeError(what());
  return givenMs;
}

export function timeWindowsRetention(storeName: string, windows: TimeWindows, givenMs: number | undefined): number {
  const grace = windows.graceMs ?? 0;
  return windowRetention(
    storeName,
    windows.sizeMs + grace,
    givenMs,
    () => `The retention period of the window store ${storeName} must be no smaller than its window size plus the grace period. Got size=[${windows.sizeMs}], grace=[${grace}], retention=[${givenMs}]`,
  );
}

/** Sliding windows keep twice the time difference: a record may create the right window of one that far back. */
export function slidingWindowsRetention(storeName: string, windows: SlidingWindows, givenMs: number | undefined): number {
  const grace = windows.graceMs ?? 0;
  return windowRetention(
    storeName,
    2 * windows.timeDifferenceMs + grace,
    givenMs,
    () => `The retention period of the window store ${storeName} must be no smaller than 2 * time difference plus the grace period. Got time difference=[${windows.timeDifferenceMs}], grace=[${grace}], retention=[${givenMs}]`,
  );
}

export function sessionWindowsRetention(storeName: string, windows: SessionWindows, givenMs: number | undefined): number {
  const grace = windows.graceMs ?? 0;
  return windowRetention(
    storeName,
    windows.gapMs + grace,
    givenMs,
    () => `The retention period of the session store ${storeName} must be no smaller than the session inactivity gap plus the grace period. Got gap=[${windows.gapMs}], grace=[${grace}], retention=[${givenMs}]`,
  );
}

/** Tumbling windows from a factory: `advanceBy` makes them hopping. */
export type TumblingWindowsDefinition = Extract<TimeWindows, { type: "tumbling" }> & {
  advanceBy(advanceMs: number): Extract<TimeWindows, { type: "hopping" }>;
};

function timeWindows(sizeMs: number, graceMs: number): TumblingWindowsDefinition {
  const windows: TumblingWindowsDefinition = {
    type: "tumbling",
    sizeMs,
    graceMs,
    advanceBy: (advanceMs) => {
      const hopping = { type: "hopping" as const, sizeMs, advanceMs, graceMs };
      checkTimeWindows(hopping);
      return hopping;
    },
  };
  checkTimeWindows(windows);
  return windows;
}

export const TimeWindows = {
  ofSizeWithNoGrace: (sizeMs: number): TumblingWindowsDefinition => timeWindows(sizeMs, 0),
  ofSizeAndGrace: (sizeMs: number, afterWindowEndMs: number): TumblingWindowsDefinition => timeWindows(sizeMs, afterWindowEndMs),
};

function slidingWindows(timeDifferenceMs: number, graceMs: number): SlidingWindows {
  const windows: SlidingWindows = { type: "sliding", timeDifferenceMs, graceMs };
  checkSlidingWindows(windows);
  return windows;
}

export const SlidingWindows = {
  ofTimeDifferenceWithNoGrace: (timeDifferenceMs: number): SlidingWindows => slidingWindows(timeDifferenceMs, 0),
  ofTimeDifferenceAndGrace: (timeDifferenceMs: number, afterWindowEndMs: number): SlidingWindows => slidingWindows(timeDifferenceMs, afterWindowEndMs),
};

function sessionWindows(gapMs: number, graceMs: number): SessionWindows {
  const windows: SessionWindows = { type: "session", gapMs, graceMs };
  checkSessionWindows(windows);
  return windows;
}

export const SessionWindows = {
  ofInactivityGapWithNoGrace: (gapMs: number): SessionWindows => sessionWindows(gapMs, 0),
  ofInactivityGapAndGrace: (gapMs: number, afterWindowEndMs: number): SessionWindows => sessionWindows(gapMs, afterWindowEndMs),
};

/** Whether a strategy is onWindowClose; anything but Kafka Streams' two is an error. */
export function emitsOnClose(strategy: EmitStrategy): boolean {
  if (strategy?.type !== "on_window_close" && strategy?.type !== "on_window_update") throw new TypeError(`unknown emit strategy ${JSON.stringify(strategy)}: use EmitStrategy.onWindowClose() or onWindowUpdate()`);
  return strategy.type === "on_window_close";
}

export const EmitStrategy = {
  onWindowUpdate: (): EmitStrategy => ({ type: "on_window_update" }),
  onWindowClose: (): EmitStrategy => ({ type: "on_window_close" }),
};
