/**
 * The keys of a key-value store in byte order, in memory: what lets a processor range over the store synchronously
 * (LevelDB iterates only asynchronously). Keys are held as their latin1 strings, whose order is their bytes' order.
 * Kept by stores processors range over (Processor API stores); built from the committed data when the task opens,
 * then changed by every write and restore.
 */
import BTree from "sorted-btree";

export class KeyIndex {
  private readonly tree = new BTree<string, true>();

  add(id: string): void {
    this.tree.set(id, true);
  }

  remove(id: string): void {
    this.tree.delete(id);
  }

  get size(): number {
    return this.tree.size;
  }

  /** The keys in [from, to] (an omitted bound is open), ascending or descending, as they are now. */
  range(from: string | undefined, to: string | undefined, reverse: boolean): string[] {
    const ids: string[] = [];
    if (from !== undefined && to !== undefined && from > to) return ids;
    if (reverse) {
      for (const [id] of this.tree.entriesReversed(to)) {
        if (from !== undefined && id < from) break;
        ids.push(id);
      }
    } else {
      for (const id of this.tree.keys(from)) {
        if (to !== undefined && id > to) break;
        ids.push(id);
      }
    }
    return ids;
  }
}
