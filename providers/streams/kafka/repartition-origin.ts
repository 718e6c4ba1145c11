/**
 * Exactly-once across a repartition topic without transactions. A task that re-processes input after a crash
 * or a rebalance (from the group's committed offset) writes again what it had already written to the
 * repartition topic. Each repartition record therefore carries its origin — the input topic-partition, the
 * input offset and its rank among that input record's outputs — and the reading task keeps, per origin
 * partition, the last origin it applied, in the same atomic commit as its stores; a record at or below it is
 * a re-send and is skipped. Records of one origin partition reach each repartition partition in order
 * (one producer, requests sent one after the other), so a high-water mark is enough.
 */

export const ORIGIN_HEADER = "sluice.origin";
/** Origin marks are kept among a task's input positions under this prefix. */
export const ORIGIN_POSITION_PREFIX = "origin:";

/** Header value: `<offset>.<rank>@<topic>:<partition>`. */
export function originStamp(topic: string, partition: number, offset: number, rank: number): string {
  return `${offset}.${rank}@${topic}:${partition}`;
}

/**
 * Whether the record stamped `stamp` was already applied according to `positions` (the task's checkpointed
 * positions); if not, records it there as the newest applied.
 */
export function firstApplication(stamp: string, positions: Record<string, string>): boolean {
  const at = stamp.indexOf("@");
  const dot = stamp.indexOf(".");
  if (at < 0 || dot < 0 || dot > at) return true;
  const key = `${ORIGIN_POSITION_PREFIX}${stamp.slice(at + 1)}`;
  const last = positions[key];
  if (last !== undefined) {
    const lastDot = last.indexOf(".");
    const offset = Number(stamp.slice(0, dot));
    const lastOffset = Number(last.slice(0, lastDot));
    if (offset < lastOffset || (offset === lastOffset && Number(stamp.slice(dot + 1, at)) <= Number(last.slice(lastDot + 1)))) return false;
  }
  positions[key] = stamp.slice(0, at);
  return true;
}
