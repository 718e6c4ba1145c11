import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { eventually } from "../../../helpers/eventually";
import { http } from "../../../helpers/sluice";
import { startSluiceWithExamples } from "../../../helpers/streams";
import { deploy, pause, resume, wordcountOn } from "../../../plugins/streams-api/deployments-client";
import { streamsClient } from "../../../plugins/streams-api/streams-client";
import { startWordcountCluster, stopProcess, untilExactCounts, type WordcountCluster } from "../wordcount-processes";

/*
 * Deployments made over REST, and pause decisions, outlive the process: a `sluice start` child is SIGKILLed after
 * deploying two wordcounts and pausing one, and started again on the same state dir.
 */
const restart = suite("deployments survive SIGKILL");
let cluster: WordcountCluster;

restart.before(async () => {
  cluster = await startWordcountCluster(1);
});
restart.after(async () => {
  await cluster?.close();
});

const produce = (topic: string, lines: string[]) => cluster.producer.send({ topic, messages: lines.map((value) => ({ value })), acks: -1 });

restart("after kill -9 and a restart both deployed instances are back, the paused one still paused", async () => {
  const first = await cluster.start();
  for (const id of ["wordcount-b", "wordcount-c"]) {
    const res = await deploy(first.url, wordcountOn(id));
    assert.is(res.status, 201, res.text);
    await streamsClient(first.url, id).waitForState(["RUNNING"], 30_000);
  }
  const bLines = ["one two", "two three"];
  const cLines = ["red green", "green"];
  await produce("wordcount-b-words", bLines);
  await produce("wordcount-c-words", cLines);
  await untilExactCounts(first.url, "wordcount-b", bLines);
  await untilExactCounts(first.url, "wordcount-c", cLines);
  assert.is((await pause(first.url, "wordcount-c")).status, 200);
  await stopProcess(first.process, "SIGKILL");
  assert.is(first.process.child.signalCode, "SIGKILL");

  const second = await cluster.start(first.stateDir);
  assert.equal((await http(`${second.url}/api/v1/streams`)).json(), ["latest", "pageviews", "sessions", "wordcount", "wordcount-b", "wordcount-c"]);
  const b = streamsClient(second.url, "wordcount-b");
  const c = streamsClient(second.url, "wordcount-c");
  await b.waitForState(["RUNNING"], 30_000);
  await c.waitForState(["RUNNING"], 30_000);
  assert.is((await b.json()).state.paused, undefined);
  assert.is((await c.json()).state.paused, true);
  assert.is((await c.json()).config["input.topic"], "wordcount-c-words");

  const moreC = ["green blue"];
  await produce("wordcount-b-words", ["three"]);
  await produce("wordcount-c-words", moreC);
  await untilExactCounts(second.url, "wordcount-b", [...bLines, "three"]);
  await untilExactCounts(second.url, "wordcount-c", cLines);
  await eventually(async () => (await c.json("/offsets")).consumers[0]?.positions.some((position: { lag: number }) => position.lag >= 1), { what: "the paused instance to lag" });
  assert.is((await resume(second.url, "wordcount-c")).status, 200);
  await untilExactCounts(second.url, "wordcount-c", [...cLines, ...moreC]);
  await stopProcess(second.process, "SIGTERM");
});

restart.run();

const corrupt = suite("a deployments file Sluice cannot use stops startup naming it");

// A deployment Sluice cannot start (a topology it lacks) is a failed instance instead: deploy-trust.test.ts.
corrupt("a corrupt file is a startup error naming the file", async () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-deployments-"));
  const file = path.join(stateDir, "deployments.json");
  try {
    const cases: [string, RegExp][] = [
      ['{"format": 1, "deployed": [', /is corrupt \(.*JSON/],
      ['{"format": 1, "deployed": [{"id": "x"}], "paused": [], "terminated": []}', /is corrupt \('deployed\[0\].topology' must be a non-empty string\)/],
      ['{"format": 1, "deployed": [], "paused": "all", "terminated": []}', /is corrupt \('paused' must be an array\)/],
    ];
    for (const [text, message] of cases) {
      fs.writeFileSync(file, text);
      const error = await startSluiceWithExamples({ "streams.state.dir": stateDir }).then(
        async (sluice) => {
          await sluice.close();
          return undefined;
        },
        (error: Error) => error,
      );
      assert.ok(error, `${text} was accepted`);
      assert.match(error.message, file);
      assert.match(error.message, message);
      assert.is(fs.readFileSync(file, "utf8"), text, "the file is left as it was");
    }
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

corrupt.run();
