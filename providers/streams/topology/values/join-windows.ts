/**
 * Kafka Streams' JoinWindows factories, as a topology imports them from "sluice":
 * `JoinWindows.ofTimeDifferenceWithNoGrace(10)`, `JoinWindows.ofTimeDifferenceAndGrace(10, 5).before(2)`. Times are
 * milliseconds. The rules are Kafka Streams': before + after and the grace may not be negative.
 */
import type { JoinWindows as JoinWindowsType } from "../../../../kernel/contracts/streams/dsl";

function milliseconds(value: number, what: string): number {
  if (!Number.isSafeInteger(value)) throw new RangeError(`JoinWindows: ${what} must be a whole number of milliseconds, got ${value}`);
  return value;
}

export class JoinWindows implements JoinWindowsType {
  private constructor(
    readonly beforeMs: number,
    readonly afterMs: number,
    readonly graceMs: number,
  ) {
    if (beforeMs + afterMs < 0) throw new RangeError(`JoinWindows: the window interval (before ${beforeMs} ms + after ${afterMs} ms) must not be negative`);
    if (graceMs < 0) throw new RangeError(`JoinWindows: the grace period must not be negative, got ${graceMs} ms`);
  }

  /** Records join when their timestamps differ by at most `timeDifferenceMs`; those later than `graceMs` after the window do not. */
  static ofTimeDifferenceAndGrace(timeDifferenceMs: number, graceMs: number): JoinWindows {
    const difference = milliseconds(timeDifferenceMs, "the time difference");
    return new JoinWindows(difference, difference, milliseconds(graceMs, "the grace period"));
  }

  /** ofTimeDifferenceAndGrace with no grace: a record out of order by more than the difference joins nothing. */
  static ofTimeDifferenceWithNoGrace(timeDifferenceMs: number): JoinWindows {
    return JoinWindows.ofTimeDifferenceAndGrace(timeDifferenceMs, 0);
  }

  before(timeDifferenceMs: number): JoinWindows {
    return new JoinWindows(milliseconds(timeDifferenceMs, "before"), this.afterMs, this.graceMs);
  }

  after(timeDifferenceMs: number): JoinWindows {
    return new JoinWindows(this.beforeMs, milliseconds(timeDifferenceMs, "after"), this.graceMs);
  }

  size(): number {
    return this.beforeMs + this.afterMs;
  }

  gracePeriodMs(): number {
    return this.graceMs;
  }

  toString(): string {
    return `JoinWindows{beforeMs=${this.beforeMs}, afterMs=${this.afterMs}, graceMs=${this.graceMs}}`;
  }
}
