import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { openTaskState } from "../../../../providers/streams/state";
import { LATEST_OFFSET } from "../../../../providers/streams/kafka/assignment/warmup-placement";
import { recoverCrashedTasks, TaskOffsetSums } from "../../../../providers/streams/kafka/processing/task-offset-sums";
import { eventually } from "../../../helpers/eventually";
import { wordcountTopology as topology } from "./wordcount-topology";

const test = suite("streams: the changelog offset sums a member reports as it joins");

const [store] = topology.loggedStoresOf(1);

test("running tasks report LATEST_OFFSET, restoring ones and standbys what they applied, closed ones what they left; open, stateless and unknown ones nothing", async () => {
  const stateDir = await mkdtemp(join(tmpdir(), "sluice-offset-sums-"));
  try {
    const open = (taskId: string) => openTaskState({ stateDir, applicationId: topology.applicationId, taskId, stores: topology.storeSpecsOf(1) });
    const closed = await open("1_2");
    await closed.commit({ changelogPositions: { [store]: "499" } });
    await closed.close();
    // Open elsewhere (another stream thread of the process): that thread reports it.
    const elsewhere = await open("1_3");
    await elsewhere.commit({ changelogPositions: { [store]: "99" } });
    const positions = (offset: number) => new Map([[store, offset]]);
    const sums = new TaskOffsetSums(topology, stateDir).report(
      [
        { id: "0_0", subTopologyId: 0, changelogPositions: new Map() },
        { id: "1_0", subTopologyId: 1, changelogPositions: positions(9) },
        { id: "1_4", subTopologyId: 1, changelogPositions: positions(19), restoring: true },
      ],
      [{ id: "1_1", subTopologyId: 1, changelogPositions: positions(29) }],
      ["1_1", "1_2", "1_3", "7_0"],
    );
    assert.equal(sums, { "1_0": LATEST_OFFSET, "1_4": 20, "1_1": 30, "1_2": 500 });
    await elsewhere.close();
    // State of a sub-topology an older version of the application had is no task's: it is neither reported nor read.
    const older = await openTaskState({ stateDir, applicationId: topology.applicationId, taskId: "7_0", stores: topology.storeSpecsOf(1) });
    await older.commit({ changelogPositions: { [store]: "9" } });
    await older.close();
    assert.equal(new TaskOffsetSums(topology, stateDir).report([], [], ["7_0"]), {});
    assert.equal(await recoverCrashedTasks(topology, stateDir), []);
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
});

test("a task whose process was killed with its state open reports what its database committed, once the next run recovered it", async () => {
  const stateDir = await mkdtemp(join(tmpdir(), "sluice-offset-sums-crash-"));
  const child = spawn(process.execPath, [join(__dirname, "commit-until-killed.js"), stateDir, "1_3", "300"], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    await eventually(() => output.includes("committed 299\n"), { timeoutMs: 30_000, what: "the child's 300 commits" });
    child.kill("SIGKILL");
    await exited;

    const sums = new TaskOffsetSums(topology, stateDir);
    assert.equal(sums.report([], [], ["1_3"]), {}, "the killed process closed nothing");
    assert.equal(await recoverCrashedTasks(topology, stateDir), ["1_3"]);
    assert.equal(sums.report([], [], ["1_3"]), { "1_3": 300 });
    assert.equal(await recoverCrashedTasks(topology, stateDir), [], "recovered once");

    // The recovered task opens as the killed process left it, and reports its own commits again once closed.
    const state = await openTaskState({ stateDir, applicationId: topology.applicationId, taskId: "1_3", stores: topology.storeSpecsOf(1) });
    assert.equal(state.checkpoint().changelogPositions, { [store]: "299" });
    assert.equal(state.timestampedKeyValueStore<string, number>(store).get("w49"), { value: 299, timestamp: 299 });
    assert.equal(sums.report([], [], ["1_3"]), {}, "not while it is open");
    await state.commit({ changelogPositions: { [store]: "349" } });
    await state.close();
    assert.equal(sums.report([], [], ["1_3"]), { "1_3": 350 });
  } finally {
    child.kill("SIGKILL");
    await rm(stateDir, { recursive: true, force: true });
  }
});

test.run();
