/**
 * Pipelined requests on one connection may finish in any order (a long-polling Fetch, then a Metadata);
 * their responses leave in the order the requests arrived.
 */

interface Slot {
  done: boolean;
  frames: Buffer[] | null;
}

export class OrderedResponses {
  private readonly slots: Slot[] = [];

  constructor(private readonly send: (frames: Buffer[]) => void) {}

  get inFlight(): number {
    return this.slots.length;
  }

  /** Reserves the next place in line; call the returned function with the response (null: none). */
  reserve(): (frames: Buffer[] | null) => void {
    const slot: Slot = { done: false, frames: null };
    this.slots.push(slot);
    return (frames) => {
      slot.done = true;
      slot.frames = frames;
      this.flush();
    };
  }

  private flush(): void {
    while (this.slots.length > 0 && this.slots[0].done) {
      const frames = this.slots.shift()!.frames;
      if (frames) this.send(frames);
    }
  }
}
