/** Opens a memory or file store in a fresh temp dir for one test, and cleans up after it. */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { FileLogStore } from "../../../../providers/broker/storage/file-log-store";
import { encodeRecordBatch } from "../../../../providers/kafka-protocol";
import type { LogStore, TopicSettings } from "../../../../providers/broker/storage/log-store";
import { MemoryLogStore } from "../../../../providers/broker/storage/memory-log-store";
import type { LogStoreConfig } from "../../../../providers/broker/storage/partitioned-log-store";
import type { ComponentLogger } from "../../../../kernel/logger";
export type StoreKind = "memory" | "file";
export const STORE_KINDS: StoreKind[] = ["memory", "file"];

export const FOREVER: TopicSettings = { partitions: 1, retentionMs: null, retentionBytes: null };

export function tempDataDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "sluice-storage-"));
}

export function storeConfig(dataDir: string, overrides: Partial<LogStoreConfig> = {}): LogStoreConfig {
  return { dataDir, segmentBytes: 1 << 20, defaultRetentionMs: null, defaultRetentionBytes: null, ...overrides };
}

export function newStore(kind: StoreKind, config: LogStoreConfig): LogStore {
  return kind === "memory" ? new MemoryLogStore(config) : new FileLogStore(config);
}

/** Runs `test` against an opened store of `kind`; closes it and removes its directory afterwards. */
export async function withStore(
  kind: StoreKind,
  test: (store: LogStore, dataDir: string) => Promise<void>,
  overrides: Partial<LogStoreConfig> = {},
): Promise<void> {
  const dataDir = tempDataDir();
  const store = newStore(kind, storeConfig(dataDir, overrides));
  await store.open();
  try {
    await test(store, dataDir);
  } finally {
    await store.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A logger that remembers what it was told, for asserting on warnings. */
export function recordingLogger(): ComponentLogger & { lines: { level: string; msg: string; fields?: object }[] } {
  const lines: { level: string; msg: string; fields?: object }[] = [];
  const at = (level: string) => (msg: string, fields?: object) => void lines.push({ level, msg, fields });
  return { lines, debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

/** A batch of `count` keyed records whose values are `${prefix}-${i}` and `valueBytes` of padding, all at `timestamp`. */
export function batchOf(count: number, prefix = "v", valueBytes = 0, timestamp = 1_700_000_000_000): Buffer {
  const pad = "x".repeat(valueBytes);
  return encodeRecordBatch(Array.from({ length: count }, (_, i) => ({ key: Buffer.from(`k${i}`), value: Buffer.from(`${prefix}-${i}${pad}`), timestamp })));
}
