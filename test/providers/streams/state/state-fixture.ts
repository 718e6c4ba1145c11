/** Shared set-up of the state store tests: tiny serdes, temp state dirs, collecting async iterables. */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import type { StoreSpec } from "../../../../kernel/contracts/streams/stores";
import { openTaskState, type TaskState, type TaskStateOptions } from "../../../../providers/streams/state";

export const stringSerde: Serde<string> = {
  name: "string",
  serialize: (value) => Buffer.from(value, "utf8"),
  deserialize: (bytes) => bytes.toString("utf8"),
};

export function jsonSerde<T>(): Serde<T> {
  return {
    name: "json",
    serialize: (value) => Buffer.from(JSON.stringify(value), "utf8"),
    deserialize: (bytes) => JSON.parse(bytes.toString("utf8")) as T,
  };
}

export const bytesSerde: Serde<Buffer> = { name: "bytes", serialize: (value) => value, deserialize: (bytes) => Buffer.from(bytes) };

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** A temp state dir and the task states opened in it; `cleanup` closes them all and deletes the dir. */
export class StateDir {
  private readonly opened: TaskState[] = [];

  private constructor(readonly path: string) {}

  static async create(): Promise<StateDir> {
    return new StateDir(await mkdtemp(join(tmpdir(), "sluice-state-")));
  }

  async open(stores: StoreSpec[], options: Partial<TaskStateOptions> = {}): Promise<TaskState> {
    const state = await openTaskState({ stateDir: this.path, applicationId: "app", taskId: "0_0", stores, ...options });
    this.opened.push(state);
    return state;
  }

  async cleanup(): Promise<void> {
    for (const state of this.opened) await state.close();
    await rm(this.path, { recursive: true, force: true });
  }
}

export const keyValueSpec = (name = "counts"): StoreSpec => ({ name, type: "key_value", keySerde: stringSerde, valueSerde: jsonSerde<number>() });
