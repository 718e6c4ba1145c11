/**
 * Hands out producer ids (InitProducerId) from blocks reserved ahead of use, as Kafka's brokers do: the end of the
 * block in use is made durable before its first id is given, so a restart, even after a crash, starts past every
 * id ever given and no two producers share one.
 */

/** Ids reserved at a time: one reservation (a small file write) per this many producers. */
export const PRODUCER_ID_BLOCK_SIZE = 1000n;

export class ProducerIdBlocks {
  private next = 0n;
  private end = 0n;
  private reserving?: Promise<void>;

  /** `reserve` makes [first, first + count) durably taken and resolves with `first`. */
  constructor(private readonly reserve: (count: bigint) => Promise<bigint>) {}

  async allocate(): Promise<bigint> {
    while (this.next >= this.end) {
      this.reserving ??= this.reserveBlock();
      await this.reserving;
    }
    return this.next++;
  }

  private async reserveBlock(): Promise<void> {
    try {
      const first = await this.reserve(PRODUCER_ID_BLOCK_SIZE);
      this.next = first;
      this.end = first + PRODUCER_ID_BLOCK_SIZE;
    } finally {
      this.reserving = undefined;
    }
  }
}
