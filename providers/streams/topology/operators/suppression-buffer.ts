/**
 * What a suppression keeps (Kafka Streams' InMemoryTimeOrderedKeyValueChangeBuffer): each key's latest update with its
 * record context, in a key_value store (changelogged and restored like any store), and in memory the order in which
 * keys leave: by buffer time, then by key bytes. A key keeps its place when updated again (non-resetting, as in Kafka
 * Streams), so its time is that of its first update since it last left.
 */
import type { Header } from "../../../../kernel/contracts/streams/processor";
import type { Serde } from "../../../../kernel/contracts/streams/serde";

/** One buffered update: the key's latest value and the context of the record that brought it. */
export interface BufferedUpdate {
  /** When the key may leave: its window's end, or its first update's timestamp. */
  time: number;
  timestamp: number;
  /** The topic of the input record that brought the update (null in a punctuation): counted in the buffer's bytes. */
  topic: string | null;
  headers: readonly Header[] | undefined;
  value: unknown;
}

export type BufferedUpdateSerde = Serde<BufferedUpdate> & { readonly valueSerde: Serde<unknown> };

/** The bytes of a buffered update: times, topic, headers, then the value with the table's serde (-1 length: null). */
export function bufferedUpdateSerde(valueSerde: Serde<unknown>): BufferedUpdateSerde {
  return {
    name: `suppression-buffer(${valueSerde.name})`,
    valueSerde,
    serialize: (update) => {
      const parts: Buffer[] = [times(update.time, update.timestamp), sized(update.topic === null ? null : Buffer.from(update.topic, "utf8"))];
      const headers = update.headers ?? [];
      parts.push(int32(headers.length));
      for (const header of headers) parts.push(sized(Buffer.from(header.key, "utf8")), sized(header.value));
      parts.push(sized(update.value === null || update.value === undefined ? null : valueSerde.serialize(update.value)));
      return Buffer.concat(parts);
    },
    deserialize: (bytes) => {
      const reader = new Reader(bytes);
      const time = reader.int64();
      const timestamp = reader.int64();
      const topic = reader.sized()?.toString("utf8") ?? null;
      const headers: Header[] = [];
      for (let count = reader.int32(); count > 0; count--) headers.push({ key: reader.sized()!.toString("utf8"), value: reader.sized() });
      const value = reader.sized();
      return { time, timestamp, topic, headers: headers.length === 0 ? undefined : headers, value: value === null ? null : valueSerde.deserialize(value) };
    },
  };
}

function times(...values: number[]): Buffer {
  const bytes = Buffer.allocUnsafe(8 * values.length);
  values.forEach((value, index) => bytes.writeBigInt64BE(BigInt(value), 8 * index));
  return bytes;
}

function int32(value: number): Buffer {
  const bytes = Buffer.allocUnsafe(4);
  bytes.writeInt32BE(value);
  return bytes;
}

function sized(bytes: Buffer | null): Buffer {
  return bytes === null ? int32(-1) : Buffer.concat([int32(bytes.length), bytes]);
}

class Reader {
  private offset = 0;
  constructor(private readonly bytes: Buffer) {}
  int32(): number {
    const value = this.bytes.readInt32BE(this.offset);
    this.offset += 4;
    return value;
  }
  int64(): number {
    const value = Number(this.bytes.readBigInt64BE(this.offset));
    this.offset += 8;
    return value;
  }
  sized(): Buffer | null {
    const length = this.int32();
    if (length < 0) return null;
    const value = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return value;
  }
}

/**
 * What Kafka Streams counts of a buffered update towards `maxBytes`: its buffer time, key and value bytes, and its
 * record context (timestamp, offset, partition, the topic's characters, the headers' names and values).
 */
export function bufferedSize(keyBytes: Buffer, valueBytes: number, update: Pick<BufferedUpdate, "topic" | "headers">): number {
  let size = 8 + keyBytes.length + valueBytes + 8 + 8 + 4 + (update.topic?.length ?? 0);
  for (const header of update.headers ?? []) size += header.key.length + (header.value?.length ?? 0);
  return size;
}

interface Place {
  readonly time: number;
  readonly keyBytes: Buffer;
  readonly id: string;
  key: unknown;
  size: number;
}

/** Keys in the order they leave the buffer: a binary heap on (time, key bytes), and each key's place by its bytes. */
export class BufferOrder {
  private readonly heap: Place[] = [];
  private readonly places = new Map<string, Place>();
  private bytes = 0;

  get count(): number {
    return this.places.size;
  }

  get size(): number {
    return this.bytes;
  }

  /** The earliest buffer time, Infinity when empty. */
  get minTime(): number {
    return this.heap.length === 0 ? Infinity : this.heap[0].time;
  }

  /** The time a key's update is buffered under: its place's when it has one (non-resetting), else `time`. */
  timeOf(keyBytes: Buffer, time: number): number {
    return this.places.get(keyBytes.toString("latin1"))?.time ?? time;
  }

  /** Records a key's update (its place kept if it has one) and its size. */
  put(key: unknown, keyBytes: Buffer, time: number, size: number): void {
    const id = keyBytes.toString("latin1");
    const place = this.places.get(id);
    if (place !== undefined) {
      this.bytes += size - place.size;
      place.size = size;
      place.key = key;
      return;
    }
    const added: Place = { time, keyBytes, id, key, size };
    this.places.set(id, added);
    this.bytes += size;
    this.heap.push(added);
    this.up(this.heap.length - 1);
  }

  /** Removes and returns the key that leaves first. */
  pop(): unknown {
    const first = this.heap[0];
    const last = this.heap.pop()!;
    if (this.heap.length > 0) {
      this.heap[0] = last;
      this.down(0);
    }
    this.places.delete(first.id);
    this.bytes -= first.size;
    return first.key;
  }

  private before(a: Place, b: Place): boolean {
    return a.time !== b.time ? a.time < b.time : Buffer.compare(a.keyBytes, b.keyBytes) < 0;
  }

  private up(index: number): void {
    const { heap } = this;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!this.before(heap[index], heap[parent])) return;
      [heap[index], heap[parent]] = [heap[parent], heap[index]];
      index = parent;
    }
  }

  private down(index: number): void {
    const { heap } = this;
    for (;;) {
      const left = 2 * index + 1;
      const right = left + 1;
      let first = index;
      if (left < heap.length && this.before(heap[left], heap[first])) first = left;
      if (right < heap.length && this.before(heap[right], heap[first])) first = right;
      if (first === index) return;
      [heap[index], heap[first]] = [heap[first], heap[index]];
      index = first;
    }
  }
}
