/**
 * The registry serdes' settings default to Kafka's production pair (auto.register.schemas=false,
 * use.latest.version=true). The other values need the schema the topology gives the serde: they are checked where the
 * serde writes (given-schema.test.ts), so a topology that only reads builds under any of them; a serde that takes no
 * schema is refused one naming it.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ConfigValue } from "../../../../kernel/config/config-schema";
import type { SerdeRef } from "../../../../kernel/contracts/streams/dsl";
import type { TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";
import { buildTopology } from "../../../../providers/streams/engine/build-topology";
import { applicationConfig } from "../../../../providers/streams/streams-config";

function build(valueSerde: SerdeRef<unknown>, values: Record<string, ConfigValue>): string {
  const provider: TopologyProvider = {
    name: "p",
    version: "1",
    config: {},
    topology: (builder) => builder.stream<string, unknown>("in", { valueSerde }).to("out", { valueSerde: "string" }),
  };
  try {
    buildTopology(provider, applicationConfig([{ values: { "application.id": "app", "schema.registry.url": "http://registry.invalid", ...values }, source: "the test" }]));
    return "built";
  } catch (error) {
    return (error as Error).message;
  }
}

test("the defaults and the other values of auto.register.schemas and use.latest.version build; a schema given to a serde that takes none is refused", () => {
  assert.is(build("avro", {}), "built");
  assert.is(build("avro", { "auto.register.schemas": true, "use.latest.version": false }), "built");
  assert.is(build({ serde: "avro", schema: { type: "string" } }, { "auto.register.schemas": true }), "built");
  assert.is(build({ serde: "json_schema", schema: '{"type":"object"}' }, { "json.fail.invalid.schema": true }), "built");
  assert.match(build({ serde: "json", schema: {} } as never, {}), /^the serde 'json' of the value of .* takes no schema \(avro, json_schema and protobuf do\)/);
  assert.is(build("json", { "auto.register.schemas": true, "use.latest.version": false }), "built");
});

test.run();
