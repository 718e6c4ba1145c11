/**
 * A window or session store's directory value: the sorted suffixes (fixed-length, see key-layout.ts) of one
 * key's entries. It gives processors synchronous range reads, which LevelDB only offers through async
 * iterators: one getSync for the directory, then one per matching entry.
 */

export function parseSuffixes(directory: Buffer | undefined, suffixLength: number): Buffer[] {
  const suffixes: Buffer[] = [];
  if (directory === undefined) return suffixes;
  for (let at = 0; at + suffixLength <= directory.length; at += suffixLength) {
    suffixes.push(directory.subarray(at, at + suffixLength));
  }
  return suffixes;
}

/** Where `suffix` is or would be inserted, and whether it is there. */
export function locateSuffix(suffixes: Buffer[], suffix: Buffer): { index: number; found: boolean } {
  let low = 0;
  let high = suffixes.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const order = Buffer.compare(suffixes[middle], suffix);
    if (order === 0) return { index: middle, found: true };
    if (order < 0) low = middle + 1;
    else high = middle;
  }
  return { index: low, found: false };
}

/** The directory value for `suffixes`, or null (delete the directory) when there are none. */
export function joinSuffixes(suffixes: Buffer[]): Buffer | null {
  return suffixes.length === 0 ? null : Buffer.concat(suffixes);
}
