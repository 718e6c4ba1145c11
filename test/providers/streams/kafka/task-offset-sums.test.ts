import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { WordCountProvider } from "../../../../providers/examples";
import { buildTopology } from "../../../../providers/streams/engine/build-topology";
import { applicationConfig } from "../../../../providers/streams/streams-config";
import { openTaskState } from "../../../../providers/streams/state";
import { LATEST_OFFSET } from "../../../../providers/streams/kafka/assignment/warmup-placement";
import { TaskOffsetSums } from "../../../../providers/streams/kafka/processing/task-offset-sums";

const test = suite("streams: the changelog offset sums a member reports as it joins");

// wordcount: sub-topology 0 splits lines (stateless), 1 counts into a logged store.
const wordcount = new WordCountProvider();
const topology = buildTopology(wordcount, applicationConfig([{ values: wordcount.config, source: "the test" }]));
const [store] = topology.loggedStoresOf(1);

test("running tasks report LATEST_OFFSET, restoring ones and standbys what they applied, closed ones what they left; crashed and stateless ones nothing", async () => {
  const stateDir = await mkdtemp(join(tmpdir(), "sluice-offset-sums-"));
  try {
    const open = (taskId: string) => openTaskState({ stateDir, applicationId: topology.applicationId, taskId, stores: topology.storeSpecsOf(1) });
    const closed = await open("1_2");
    await closed.commit({ changelogPositions: { [store]: "499" } });
    await closed.close();
    const crashed = await open("1_3");
    await crashed.commit({ changelogPositions: { [store]: "99" } });
    const positions = (offset: number) => new Map([[store, offset]]);
    const sums = new TaskOffsetSums(topology, stateDir).report(
      [
        { id: "0_0", subTopologyId: 0, changelogPositions: new Map() },
        { id: "1_0", subTopologyId: 1, changelogPositions: positions(9) },
        { id: "1_4", subTopologyId: 1, changelogPositions: positions(19), restoring: true },
      ],
      [{ id: "1_1", subTopologyId: 1, changelogPositions: positions(29) }],
      ["1_1", "1_2", "1_3"],
    );
    assert.equal(sums, { "1_0": LATEST_OFFSET, "1_4": 20, "1_1": 30, "1_2": 500 });
    await crashed.close();
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
});

test.run();
