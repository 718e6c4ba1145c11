/**
 * Versioned tables where Kafka Streams refuses them (issue #34, KIP-914): of the table operators, Kafka Streams 4.4
 * refuses only suppress() of a table with versioned semantics — its own store versioned, or a filter, mapValues or
 * transformValues without a store of its own downstream of a versioned table — and a versioned global table. Joins
 * (table-table and foreign-key), aggregations, toTable and value derivations take versioned stores. The matrix
 * below was probed against Kafka Streams 4.4's StreamsBuilder and TopologyTestDriver; the build fails the same way
 * here, with Kafka Streams' words and the table named.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { KTable, Materialized, StreamsBuilder } from "../../../kernel/contracts/streams/dsl";
import { BufferConfig, Suppressed } from "../../../providers/streams/topology/values/suppressed";
import { TopologyTestDriver } from "../../../providers/streams/testing/topology-test-driver";
import { buildError } from "./build-error";

const test = suite("versioned tables refused where Kafka Streams refuses them");

const versioned = (storeName: string): Materialized<string, any> => ({ storeName, storeType: "versioned_key_value", historyRetentionMs: 60_000 });
const countedAs = (storeName: string): Materialized<string, any> => ({ ...versioned(storeName), valueSerde: "long" });
const suppressed = <V>(table: KTable<string, V>) => table.suppress(Suppressed.untilTimeLimit(1000, BufferConfig.unbounded())).toStream().to("out");
const source = (builder: StreamsBuilder, topic = "t") => builder.table<string, string>(topic, {}, versioned(`${topic}-v`));

async function builds(topology: (builder: StreamsBuilder) => void): Promise<void> {
  const driver = await TopologyTestDriver.create(topology);
  await driver.close();
}

test("suppress() of a table that keeps a versioned store is refused, whichever operator made it", async () => {
  const own = /^suppress\(\) is only supported for non-versioned KTables: table '.*' keeps versioned store '(.*)'$/;
  const cases: [string, (builder: StreamsBuilder) => void][] = [
    ["t-v", (builder) => suppressed(source(builder))],
    ["f", (builder) => suppressed(builder.table<string, string>("t").filter(() => true, versioned("f")))],
    ["c", (builder) => suppressed(builder.stream<string, string>("s").groupByKey().count(countedAs("c")))],
    ["j", (builder) => suppressed(builder.table<string, string>("t").join(builder.table<string, string>("u"), (a, b) => a + b, versioned("j")))],
    ["tt", (builder) => suppressed(builder.stream<string, string>("s").toTable(versioned("tt")))],
    ["fk", (builder) => suppressed(builder.table<string, string>("t").join(builder.table<string, string>("u"), (value) => value, (a, b) => a + b, {}, versioned("fk")))],
  ];
  for (const [store, topology] of cases) assert.is((await buildError(topology)).match(own)?.[1], store, `suppress of ${store}`);
});

test("a filter, mapValues or transformValues without a store inherits the versioned semantics upstream, and suppress() refuses it", async () => {
  const inherited = /^suppress\(\) is only supported for non-versioned KTables: table '.*' inherits the versioned semantics of store 't-v' upstream/;
  assert.match(await buildError((builder) => suppressed(source(builder).filter(() => true))), inherited);
  assert.match(await buildError((builder) => suppressed(source(builder).mapValues((value) => value).filter(() => true))), inherited);
  assert.match(await buildError((builder) => suppressed(source(builder).transformValues(() => ({ transform: (_key: string, value: string) => value })))), inherited);
});

test("what Kafka Streams accepts builds: a store of its own that is not versioned, joins and aggregations of versioned tables, versioned stores without suppress", async () => {
  await builds((builder) => suppressed(source(builder).filter(() => true, { storeName: "plain" })));
  await builds((builder) => suppressed(source(builder).groupBy((_key, value) => ({ key: value, value })).count({ storeName: "counts", valueSerde: "long" })));
  await builds((builder) => suppressed(source(builder).join(source(builder, "u"), (a, b) => a + b)));
  await builds((builder) => suppressed(source(builder).join(builder.table<string, string>("u"), (value) => value, (a, b) => a + b)));
  await builds((builder) => {
    source(builder).filter(() => true, versioned("f")).mapValues((value) => value, versioned("m")).toStream().to("out");
    builder.stream<string, string>("s").groupByKey().count(countedAs("c")).toStream().to("counted", { valueSerde: "long" });
  });
});

test.run();
