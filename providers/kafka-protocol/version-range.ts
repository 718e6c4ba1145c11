/** Version ranges as Kafka's message schemas write them: "0+", "3+", "0-2", "1". */

export interface VersionRange {
  readonly min: number;
  readonly max: number;
}

const RANGE = /^(\d+)(?:(\+)|-(\d+))?$/;

export function parseVersionRange(text: string): VersionRange {
  const match = RANGE.exec(text);
  if (!match) throw new Error(`invalid version range "${text}"`);
  const min = Number(match[1]);
  if (match[2]) return { min, max: Number.MAX_SAFE_INTEGER };
  const max = match[3] === undefined ? min : Number(match[3]);
  if (max < min) throw new Error(`invalid version range "${text}"`);
  return { min, max };
}

export function inRange(range: VersionRange, version: number): boolean {
  return version >= range.min && version <= range.max;
}

/** "3-8", or "3" for a single version. */
export function formatVersionRange({ min, max }: VersionRange): string {
  return min === max ? String(min) : `${min}-${max}`;
}
