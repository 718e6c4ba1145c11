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

/** Suffix = window start; the store knows the size. */
export function windowSuffixLayout(windowSizeMs: number): WindowedSuffixLayout & { windowSizeMs: number; encode(windowStart: number): Buffer } {
  return {
    windowSizeMs,
    length: TIME_BYTES,
    observedTime: (suffix) => readTime(suffix, 0),
    retentionTime: (suffix) => readTime(suffix, 0),
    bounds: (suffix) => {
      const start = readTime(suffix, 0);
      return { start, end: start + windowSizeMs };
    },
    encode: (windowStart) => encodeTimes(windowStart),
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
