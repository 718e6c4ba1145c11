/**
 * Sluice against Kafka Streams: every scenario of reference/scenarios runs its topology.ts in Sluice's
 * TopologyTestDriver and must reproduce the committed golden.json that Kafka Streams recorded, record by record.
 * No JDK needed. Scenarios listed in expectations.json are checked to still be what the list says.
 */
import * as fs from "fs";
import * as path from "path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { GoldenFile } from "./golden-file";
import { goldenDiff } from "./golden-diff";
import { readScript } from "./scenario-script";
import { runInSluice, type ScenarioTopology } from "./sluice-run";

const SCENARIOS = path.resolve(__dirname, "../../../reference/scenarios");
/** Where the build puts the scenarios' compiled topology.ts. */
const COMPILED = path.resolve(__dirname, "../../reference/scenarios");

interface Expectations {
  /** Scenarios with a golden but no Sluice side yet: the operator they need is missing (why, which issue). */
  waitingFor: Record<string, string>;
  /** Scenarios whose Sluice side is known to differ from Kafka Streams (why, which issue). */
  knownDeviations: Record<string, string>;
}

const expectations = JSON.parse(fs.readFileSync(path.join(SCENARIOS, "expectations.json"), "utf8")) as Expectations;
const names = fs
  .readdirSync(SCENARIOS)
  .filter((name) => fs.existsSync(path.join(SCENARIOS, name, "script.json")))
  .sort();
const tally = { match: 0, deviating: 0, waiting: 0 };

const test = suite("golden scenarios: Sluice against Kafka Streams 4.x");

test("every scenario has a golden, and every listed scenario exists", () => {
  for (const name of names) {
    assert.ok(fs.existsSync(path.join(SCENARIOS, name, "golden.json")), `scenario '${name}' has no golden.json: run reference/record-goldens ${name}`);
  }
  for (const listed of [...Object.keys(expectations.waitingFor), ...Object.keys(expectations.knownDeviations)]) {
    assert.ok(names.includes(listed), `expectations.json lists '${listed}', which is no scenario`);
  }
});

test("the README names every scenario that waits or deviates", () => {
  const readme = fs.readFileSync(path.join(SCENARIOS, "README.md"), "utf8");
  for (const listed of [...Object.keys(expectations.waitingFor), ...Object.keys(expectations.knownDeviations)]) {
    assert.ok(readme.includes(`\`${listed}\``), `reference/scenarios/README.md does not name '${listed}'`);
  }
});

for (const name of names) {
  test(name, async () => {
    const dir = path.join(SCENARIOS, name);
    const script = readScript(dir);
    const topologyOf = script.topologyOf ?? name;
    const waiting = expectations.waitingFor[name];
    if (!fs.existsSync(path.join(SCENARIOS, topologyOf, "topology.ts"))) {
      assert.ok(waiting !== undefined, `scenario '${name}' has no topology.ts and is not listed as waiting in expectations.json`);
      tally.waiting++;
      return;
    }
    assert.is(waiting, undefined, `scenario '${name}' has a topology.ts: it waits for nothing, remove it from waitingFor`);
    const golden = JSON.parse(fs.readFileSync(path.join(dir, "golden.json"), "utf8")) as GoldenFile;
    const topology = (require(path.join(COMPILED, topologyOf, "topology.js")) as { default: ScenarioTopology }).default;
    const actual = await runInSluice(script, topology, Object.keys(golden.stores));
    const differences = goldenDiff(golden, actual, { perKeyOrder: (script.partitions ?? 1) > 1 });
    const deviation = expectations.knownDeviations[name];
    if (deviation !== undefined) {
      assert.ok(differences.length > 0, `scenario '${name}' now matches its golden: remove it from knownDeviations and the README`);
      console.log(`  known deviation '${name}' (${deviation}): ${differences[0]}`);
      tally.deviating++;
      return;
    }
    assert.ok(differences.length === 0, `scenario '${name}' differs from Kafka Streams:\n    ${differences.join("\n    ")}`);
    tally.match++;
  });
}

test.after(() => {
  console.log(`  golden scenarios: ${names.length}; ${tally.match} match, ${tally.deviating} known deviations, ${tally.waiting} waiting for operators`);
});

test.run();
