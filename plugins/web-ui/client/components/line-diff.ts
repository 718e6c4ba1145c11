/**
 * A line diff: the longest common subsequence of two texts' lines, the rest as removed or added lines, in order.
 * Schemas are short, so the quadratic table is cheap; past MAX_CELLS (two schemas of some 2,000 lines each) the diff
 * is the whole of one text removed and the other added rather than a page that stalls.
 */
export interface DiffLine {
  kind: "same" | "removed" | "added";
  text: string;
}

const MAX_CELLS = 4_000_000;

export function lineDiff(before: string, after: string): DiffLine[] {
  const a = before.split("\n");
  const b = after.split("\n");
  if (a.length * b.length > MAX_CELLS) return [...a.map((text) => ({ kind: "removed" as const, text })), ...b.map((text) => ({ kind: "added" as const, text }))];
  // common[i][j]: the length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1;
  const common = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      common[i * width + j] = a[i] === b[j] ? common[(i + 1) * width + j + 1] + 1 : Math.max(common[(i + 1) * width + j], common[i * width + j + 1]);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: "same", text: a[i++] });
      j++;
    } else if (j < b.length && (i === a.length || common[i * width + j + 1] >= common[(i + 1) * width + j])) {
      lines.push({ kind: "added", text: b[j++] });
    } else {
      lines.push({ kind: "removed", text: a[i++] });
    }
  }
  return lines;
}
