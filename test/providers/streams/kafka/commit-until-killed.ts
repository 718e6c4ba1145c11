/**
 * Child process for the crash test of task-offset-sums: opens wordcount's counting task `process.argv[3]` on the state
 * dir `process.argv[2]`, commits `process.argv[4]` times (one count and the next changelog position each), prints
 * "committed <last changelog offset>" and waits to be killed, its state never closed.
 */
import { wordcountTopology } from "./wordcount-topology";
import { openTaskState } from "../../../../providers/streams/state";

async function commitThenWait(stateDir: string, taskId: string, commits: number): Promise<void> {
  const state = await openTaskState({ stateDir, applicationId: wordcountTopology.applicationId, taskId, stores: wordcountTopology.storeSpecsOf(1) });
  const [store] = wordcountTopology.loggedStoresOf(1);
  const counts = state.timestampedKeyValueStore<string, number>(store);
  for (let offset = 0; offset < commits; offset++) {
    counts.put(`w${offset % 50}`, offset, offset);
    await state.commit({ changelogPositions: { [store]: String(offset) } });
  }
  process.stdout.write(`committed ${commits - 1}\n`);
  setInterval(() => undefined, 60_000);
}

void commitThenWait(process.argv[2], process.argv[3], Number(process.argv[4]));
