import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Kafka, logLevel } from "kafkajs";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { startBroker } from "../../../providers/broker";
import { WordCountProvider } from "../../../providers/examples";
import { StreamsRuntime } from "../../../providers/streams";
import { eventually } from "../../helpers/eventually";
import { rowValues } from "../../helpers/table-rows";

const test = suite("local state written against topics that no longer exist");

async function counts(runtime: StreamsRuntime): Promise<Record<string, number>> {
  const handle = runtime.application("wordcount")!.store("counts")!;
  const contents: Record<string, number> = {};
  for (const partition of handle.localPartitions()) {
    const store = handle.readOnly(partition);
    if (store) for (const [key, value] of await rowValues(store)) contents[key as string] = value as number;
  }
  return contents;
}

/** Runs wordcount on a fresh in-memory broker over `stateDir`, feeds `lines`, and answers the counts once `expected` is reached. */
async function countOnFreshBroker(stateDir: string, lines: string[], expected: Record<string, number>): Promise<Record<string, number>> {
  const broker = await startBroker({ port: 0, storage: "memory", initialRebalanceDelayMs: 0 });
  const bootstrap = [`${broker.host}:${broker.port}`];
  const runtime = new StreamsRuntime({ bootstrapServers: bootstrap, streamsConfig: { "state.dir": stateDir, "commit.interval.ms": 50 } });
  runtime.addProvider(new WordCountProvider());
  const producer = new Kafka({ brokers: bootstrap, logLevel: logLevel.NOTHING }).producer();
  try {
    await runtime.start();
    await eventually(() => runtime.application("wordcount")!.state === "RUNNING", { what: "wordcount RUNNING", timeoutMs: 15_000 });
    await producer.connect();
    await producer.send({ topic: "words", messages: lines.map((value) => ({ value })) });
    await eventually(async () => JSON.stringify(await counts(runtime)) === JSON.stringify(expected), { what: `counts ${JSON.stringify(expected)}`, timeoutMs: 15_000 });
    return await counts(runtime);
  } finally {
    await producer.disconnect();
    await runtime.close(5_000);
    await broker.close();
  }
}

test("state ahead of recreated topics is dropped, and the new input is counted from scratch", async () => {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-stale-"));
  try {
    const first = Array.from({ length: 20 }, (_, i) => `old words line ${i}`);
    await countOnFreshBroker(stateDir, first, { line: 20, old: 20, words: 20, ...Object.fromEntries(first.map((_, i) => [String(i), 1])) });
    // A new broker starts empty: its topics begin at offset 0 again, behind what the local state has applied.
    const second = ["new words", "new line"];
    assert.equal(await countOnFreshBroker(stateDir, second, { line: 1, new: 2, words: 1 }), { line: 1, new: 2, words: 1 });
  } finally {
    fs.rmSync(stateDir, { recursive: true, force: true });
  }
});

test.run();
