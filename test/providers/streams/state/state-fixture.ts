/** Shared set-up of the state store tests: tiny serdes, temp state dirs, collecting async iterables. */

import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Serde } from "../../../../kernel/contracts/streams/serde";
import { suite, type Test } from "uvu";
import type { StoreSpec } from "../../../../kernel/contracts/streams/stores";
import { bytesSerde, jsonSerde as builtinJsonSerde, stringSerde } from "../../../../providers/streams/serdes/builtin-serdes";
import { openTaskState, type TaskState, type TaskStateOptions } from "../../../../providers/streams/state";

export { bytesSerde, stringSerde };

/** The builtin JSON serde, typed for the values a test stores. */
export const jsonSerde = <T>(): Serde<T> => builtinJsonSerde as Serde<T>;

export async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of iterable) items.push(item);
  return items;
}

/** A temp state dir and the task states opened in it; `cleanup` closes them all and deletes the dir. */
class StateDir {
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

/** A suite whose every test gets a fresh state dir (`dir`), closed and deleted after it. */
export function stateSuite(name: string): { test: Test; dir: { readonly path: string; open: StateDir["open"] } } {
  const test = suite(name);
  let current: StateDir | undefined;
  test.before.each(async () => {
    current = await StateDir.create();
  });
  test.after.each(async () => {
    await current?.cleanup();
    current = undefined;
  });
  const active = () => {
    if (!current) throw new Error("the state dir exists only while a test runs");
    return current;
  };
  return {
    test,
    dir: {
      get path() {
        return active().path;
      },
      open: (stores, options) => active().open(stores, options),
    },
  };
}
