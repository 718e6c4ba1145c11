/**
 * The time bounds of a stream-stream join (Kafka Streams' JoinWindows): a record joins the other side's records of the
 * same key whose timestamps lie from `beforeMs` before it to `afterMs` after it (for the other stream's records, the
 * bounds mirrored). Records up to `graceMs` out of order still join; a left or outer join emits a record that found no
 * partner only once its window and the grace have passed. Made with the `JoinWindows` factory that "sluice" exports.
 */
export interface JoinWindows {
  readonly beforeMs: number;
  readonly afterMs: number;
  readonly graceMs: number;
  /** The same windows, reaching `timeDifferenceMs` before a record. */
  before(timeDifferenceMs: number): JoinWindows;
  /** The same windows, reaching `timeDifferenceMs` after a record. */
  after(timeDifferenceMs: number): JoinWindows;
  /** beforeMs + afterMs: the size of each side's window store. */
  size(): number;
  gracePeriodMs(): number;
}
