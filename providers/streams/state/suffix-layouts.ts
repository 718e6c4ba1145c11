/** The suffixes of window and session entries (see key-layout.ts): what each one's times are. */

import { encodeTimes, readTime, TIME_BYTES } from "./key-layout";
import type { SuffixLayout } from "./windowed-bytes";

export interface WindowBounds {
  start: number;
  end: number;
}

export interface WindowedSuffixLayout extends SuffixLayout {
  bounds(suffix: Buffer): WindowBounds;
}

/** How a window store's suffixes read. */
export interface WindowSuffixLayout extends WindowedSuffixLayout {
  readonly windowSizeMs: number;
  /**
   * Whether a key may hold several windows with one start (Kafka Streams' retainDuplicates, the window stores of a
   * stream-stream join): each suffix then ends with a sequence number, 0 for the first window of its start.
   */
  readonly retainsDuplicates: boolean;
  /** The suffix of the (first) window that starts at `windowStart`. */
  encode(windowStart: number, sequence?: number): Buffer;
  /** The greatest suffix of the windows that start at `windowStart`: the upper bound of a range that ends there. */
  last(windowStart: number): Buffer;
  /** The sequence number of a suffix (0 where duplicates are not kept). */
  sequence(suffix: Buffer): number;
}

const SEQUENCE_BYTES = 4;
const LAST_SEQUENCE = 0xffffffff;

/** Suffix = window start (and a sequence number when duplicates are kept); the store knows the size. */
export function windowSuffixLayout(windowSizeMs: number, retainsDuplicates = false): WindowSuffixLayout {
  const encode = (windowStart: number, sequence = 0): Buffer => {
    const suffix = encodeTimes(windowStart);
    if (!retainsDuplicates) return suffix;
    const numbered = Buffer.allocUnsafe(TIME_BYTES + SEQUENCE_BYTES);
    suffix.copy(numbered);
    numbered.writeUInt32BE(sequence, TIME_BYTES);
    return numbered;
  };
  return {
    windowSizeMs,
    retainsDuplicates,
    length: retainsDuplicates ? TIME_BYTES + SEQUENCE_BYTES : TIME_BYTES,
    observedTime: (suffix) => readTime(suffix, 0),
    retentionTime: (suffix) => readTime(suffix, 0),
    bounds: (suffix) => {
      const start = readTime(suffix, 0);
      return { start, end: start + windowSizeMs };
    },
    encode,
    last: (windowStart) => encode(windowStart, LAST_SEQUENCE),
    sequence: (suffix) => (retainsDuplicates ? suffix.readUInt32BE(TIME_BYTES) : 0),
  };
}

/** Suffix = session end, session start: a key's sessions sort by end (as in Kafka Streams). */
export const sessionSuffixLayout: WindowedSuffixLayout & { encode(start: number, end: number): Buffer } = {
  length: 2 * TIME_BYTES,
  observedTime: (suffix) => readTime(suffix, 0),
  retentionTime: (suffix) => readTime(suffix, 0),
  bounds: (suffix) => ({ start: readTime(suffix, TIME_BYTES), end: readTime(suffix, 0) }),
  encode: (start, end) => encodeTimes(end, start),
};
