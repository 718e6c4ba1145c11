/**
 * What a foreign-key join sends through its two internal topics and keeps in its subscription store, and their bytes.
 * The two topics carry Kafka Streams' layouts (SubscriptionWrapperSerde version 1, SubscriptionResponseWrapperSerde
 * version 0); the hash is 16 bytes of the left value's digest (MD5 in Sluice, Murmur3 in Kafka Streams: only the
 * join's own processors compare them).
 */
import type { Serde } from "../../../kernel/contracts/streams/serde";

/** What the receiver of a subscription does (Kafka Streams' SubscriptionWrapper.Instruction, with its byte values). */
export enum Instruction {
  /** The row moved to another foreign key: forget it here, tell nothing (its new key answers). */
  DeleteKeyNoPropagate = 0,
  /** The row was deleted (or, in a left join, moved): forget it here and answer with no foreign value. */
  DeleteKeyAndPropagate = 1,
  /** Answer with the foreign value, or with none when there is none. */
  PropagateNullIfNoForeignValue = 2,
  /** Answer only when there is a foreign value (an inner join's new row). */
  PropagateOnlyIfForeignValue = 3,
}

/** A row of the left table subscribing to (or leaving) a foreign key: the registration topic's value. */
export interface Subscription {
  /** The digest of the row's value; null for a deleted row. */
  hash: Buffer | null;
  instruction: Instruction;
  /** The row's key, serialized with the left table's key serde. */
  primaryKey: Buffer;
  /** The partition of the row's task: the answer goes back there. */
  primaryPartition: number;
}

/** The answer to a subscription: the response topic's value, keyed by the row's key. */
export interface SubscriptionResponse {
  /** The hash of the subscription it answers: a row changed since then drops it. */
  hash: Buffer | null;
  foreignValue: unknown;
  /** Where it is sent; not written (the partitioner reads it). */
  primaryPartition: number;
}

const HASH_BYTES = 16;
const HASH_NULL = 0x80;
const SUBSCRIPTION_VERSION = 1;
const RESPONSE_VERSION = 0;
const TWO_TO_32 = 2 ** 32;

/** {1 bit hash is null, 7 bits version}{instruction byte}{16-byte hash, unless null}{primary key}{4-byte partition} */
export const subscriptionSerde: Serde<Subscription> = {
  name: "subscription",
  serialize: ({ hash, instruction, primaryKey, primaryPartition }) => {
    const head = Buffer.of(SUBSCRIPTION_VERSION | (hash === null ? HASH_NULL : 0), instruction);
    const partition = Buffer.allocUnsafe(4);
    partition.writeInt32BE(primaryPartition);
    return Buffer.concat(hash === null ? [head, primaryKey, partition] : [head, hash, primaryKey, partition]);
  },
  deserialize: (bytes) => {
    const version = bytes[0] & ~HASH_NULL;
    if (version !== SUBSCRIPTION_VERSION) throw new Error(`foreign-key join subscription of version ${version}: only version ${SUBSCRIPTION_VERSION} is read`);
    const keyStart = (bytes[0] & HASH_NULL) !== 0 ? 2 : 2 + HASH_BYTES;
    return {
      hash: keyStart === 2 ? null : Buffer.from(bytes.subarray(2, keyStart)),
      instruction: bytes[1] as Instruction,
      primaryKey: Buffer.from(bytes.subarray(keyStart, bytes.length - 4)),
      primaryPartition: bytes.readInt32BE(bytes.length - 4),
    };
  },
};

/** {1 bit hash is null, 7 bits version}{16-byte hash, unless null}{the foreign value, absent when null} */
export function subscriptionResponseSerde(foreignValues: Serde<unknown>): Serde<SubscriptionResponse> {
  return {
    name: `subscription-response(${foreignValues.name})`,
    serialize: ({ hash, foreignValue }) => {
      const value = foreignValue === null || foreignValue === undefined ? Buffer.alloc(0) : foreignValues.serialize(foreignValue);
      return Buffer.concat(hash === null ? [Buffer.of(RESPONSE_VERSION | HASH_NULL), value] : [Buffer.of(RESPONSE_VERSION), hash, value]);
    },
    deserialize: (bytes) => {
      const valueStart = (bytes[0] & HASH_NULL) !== 0 ? 1 : 1 + HASH_BYTES;
      return {
        hash: valueStart === 1 ? null : Buffer.from(bytes.subarray(1, valueStart)),
        foreignValue: bytes.length > valueStart ? foreignValues.deserialize(bytes.subarray(valueStart)) : null,
        primaryPartition: -1,
      };
    },
  };
}

/** One row subscribed to a foreign key, as the subscription store keeps it. */
export interface Subscriber {
  primaryKey: Buffer;
  hash: Buffer | null;
  instruction: Instruction;
  primaryPartition: number;
  timestamp: number;
}

/**
 * The subscription store's value: every row subscribed to one foreign key (the store is keyed by the foreign key).
 * Each: {4-byte key length}{key}{hash flag byte}{16-byte hash, when flagged}{instruction}{4-byte partition}{8-byte timestamp}.
 * Each subscription rewrites its foreign key's whole list, so both ways make one buffer: serializing writes into one
 * allocation, and deserializing views the bytes (the list is read, changed and written straight back) rather than
 * copying each key and hash.
 */
export const subscribersSerde: Serde<Subscriber[]> = {
  name: "subscribers",
  serialize: (subscribers) => {
    let size = 0;
    for (const { primaryKey, hash } of subscribers) size += 4 + primaryKey.length + 1 + (hash === null ? 0 : HASH_BYTES) + 13;
    const bytes = Buffer.allocUnsafe(size);
    let at = 0;
    for (const { primaryKey, hash, instruction, primaryPartition, timestamp } of subscribers) {
      at = bytes.writeUInt32BE(primaryKey.length, at);
      at += primaryKey.copy(bytes, at);
      at = bytes.writeUInt8(hash === null ? 0 : 1, at);
      if (hash !== null) at += hash.copy(bytes, at);
      at = bytes.writeUInt8(instruction, at);
      at = bytes.writeInt32BE(primaryPartition, at);
      // The 64-bit timestamp as two 32-bit halves: exact for every safe integer, and no BigInt made.
      const high = Math.floor(timestamp / TWO_TO_32);
      at = bytes.writeInt32BE(high, at);
      at = bytes.writeUInt32BE(timestamp - high * TWO_TO_32, at);
    }
    return bytes;
  },
  deserialize: (bytes) => {
    const subscribers: Subscriber[] = [];
    for (let at = 0; at < bytes.length; ) {
      const keyLength = bytes.readUInt32BE(at);
      const primaryKey = bytes.subarray(at + 4, at + 4 + keyLength);
      at += 4 + keyLength;
      const hashed = bytes[at++] === 1;
      const hash = hashed ? bytes.subarray(at, at + HASH_BYTES) : null;
      if (hashed) at += HASH_BYTES;
      subscribers.push({ primaryKey, hash, instruction: bytes[at] as Instruction, primaryPartition: bytes.readInt32BE(at + 1), timestamp: bytes.readInt32BE(at + 5) * TWO_TO_32 + bytes.readUInt32BE(at + 9) });
      at += 13;
    }
    return subscribers;
  },
};
