/**
 * A value per topic-partition: the runtime's one way of keying partitions. Entries give their topic and
 * partition back, so no key is ever taken apart again.
 */
export interface TopicPartition {
  readonly topic: string;
  readonly partition: number;
}

export class TopicPartitionMap<V> {
  private readonly byTopic = new Map<string, Map<number, V>>();

  get(topic: string, partition: number): V | undefined {
    return this.byTopic.get(topic)?.get(partition);
  }

  set(topic: string, partition: number, value: V): void {
    let partitions = this.byTopic.get(topic);
    if (partitions === undefined) {
      partitions = new Map();
      this.byTopic.set(topic, partitions);
    }
    partitions.set(partition, value);
  }

  delete(topic: string, partition: number): void {
    const partitions = this.byTopic.get(topic);
    partitions?.delete(partition);
    if (partitions?.size === 0) this.byTopic.delete(topic);
  }

  get size(): number {
    let size = 0;
    for (const partitions of this.byTopic.values()) size += partitions.size;
    return size;
  }

  /** Topics in the order they were first set, each topic's partitions likewise. */
  *entries(): IterableIterator<[TopicPartition, V]> {
    for (const [topic, partitions] of this.byTopic) for (const [partition, value] of partitions) yield [{ topic, partition }, value];
  }
}
