/**
 * The origin stamps a task puts on its repartition records (see kafka/topics/repartition-origin for why): header
 * `sluice.origin` = `<offset>.<rank>@<topic>:<partition>` of the input record the output comes from.
 */
import type { StampHeader } from "../../kafka-client";
import { HIDDEN_HEADER_NAME, ORIGIN_HEADER } from "../processor/hidden-headers";

export { ORIGIN_HEADER };
/** The header's name as its bytes: written by stamps, looked for by the commit sequence. */
export const ORIGIN_HEADER_NAME = HIDDEN_HEADER_NAME;

/**
 * The origin header of one repartition record, `<offset>.<rank>@<topic>:<partition>`, written by the encoder
 * straight into the batch: the record's output costs this one small object, not a string.
 */
export class OriginStamp implements StampHeader {
  readonly valueBytes: number;

  /** `source`: `@<topic>:<partition>` in UTF-8. */
  constructor(
    private readonly source: Buffer,
    private readonly offset: number,
    private readonly rank: number,
  ) {
    this.valueBytes = decimalDigits(offset) + 1 + decimalDigits(rank) + source.length;
  }

  get name(): Buffer {
    return ORIGIN_HEADER_NAME;
  }

  writeValue(buffer: Buffer, position: number): number {
    const end = position + this.valueBytes;
    const sourceStart = end - this.source.length;
    buffer.set(this.source, sourceStart);
    const rankStart = writeDecimalEndingAt(buffer, sourceStart, this.rank);
    buffer[rankStart - 1] = DOT;
    writeDecimalEndingAt(buffer, rankStart - 1, this.offset);
    return end;
  }
}

/** Stamps the outputs of one task's input partition; keeps the `@<topic>:<partition>` bytes of the last input topic. */
export class OriginStamps {
  private topic = "";
  private source = Buffer.alloc(0);

  constructor(private readonly partition: number) {}

  stamp(topic: string, offset: number, rank: number): OriginStamp {
    if (topic !== this.topic) {
      this.source = Buffer.from(`@${topic}:${this.partition}`, "utf8");
      this.topic = topic;
    }
    return new OriginStamp(this.source, offset, rank);
  }
}

/** Decimal digits of a non-negative integer up to 2^53. */
function decimalDigits(value: number): number {
  let digits = 1;
  for (let limit = 10; value >= limit; limit *= 10) digits++;
  return digits;
}

/**
 * Writes the decimal digits of `value` (a non-negative integer up to 2^53) so that they end at `end`; returns where
 * they start. Below 2^31 in int32 arithmetic: a remainder of doubles would be a call to fmod per digit.
 */
function writeDecimalEndingAt(buffer: Buffer, end: number, value: number): number {
  let position = end;
  for (; value >= 0x80000000; value = Math.floor(value / 10)) buffer[--position] = 48 + (value % 10);
  let rest = value | 0;
  do {
    const tens = (rest / 10) | 0;
    buffer[--position] = 48 + rest - tens * 10;
    rest = tens;
  } while (rest > 0);
  return position;
}

const DOT = 0x2e;
