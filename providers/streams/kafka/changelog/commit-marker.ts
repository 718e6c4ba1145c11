/**
 * Commit markers: the last changelog record a task writes for a store in a commit carries the task's input
 * positions as of that commit (its input offsets and repartition origin marks), so that a store restored from its
 * changelog on another instance comes with the positions it is exact at. Without them, the new owner would go on
 * from the group's committed offsets with the positions of whatever local state it had: records already in the
 * restored state were applied again (a batch whose changelog was written but whose offsets were not committed, or a
 * repartition record re-sent after its origin was applied), and counts came out too high.
 *
 * The restore applies a changelog up to its last marker only: records after it belong to a commit that never
 * completed (its marker was not written), and the input they came from is processed again. This holds for tasks
 * with one store; a task with several stores cannot tell a complete commit from its markers alone (each store has
 * its own), so its stores are restored whole and keep the positions of the local state, as before.
 */
export const POSITIONS_HEADER = "sluice.positions";

/** The header value: the positions as JSON. */
export function encodePositions(positions: Record<string, string>): string {
  return JSON.stringify(positions);
}

/** The positions of a marker's header, or undefined for a record that is no marker (or an unreadable one). */
export function decodePositions(header: Buffer | null | undefined): Record<string, string> | undefined {
  if (header == null) return undefined;
  try {
    const parsed: unknown = JSON.parse(header.toString("utf8"));
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined;
    const positions: Record<string, string> = {};
    for (const [key, value] of Object.entries(parsed)) if (typeof value === "string") positions[key] = value;
    return positions;
  } catch {
    return undefined;
  }
}
