/** Which processes a child started, and whether they still run: what tests of signals and shutdown look at (Linux's /proc). */
import fs from "node:fs";

/** The parent of `pid`, or undefined once it has exited. */
function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: the fields after its closing one are fixed.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** Every process below `pid` now: its children, theirs, and so on. */
export function descendantsOf(pid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent !== undefined) parents.set(Number(entry), parent);
  }
  const found: number[] = [];
  const below = (ancestor: number) => {
    for (const [child, parent] of parents) {
      if (parent === ancestor) {
        found.push(child);
        below(child);
      }
    }
  };
  below(pid);
  return found;
}

/** Whether `pid` runs (a zombie waiting for its parent to reap it counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}
