/**
 * The registry serdes (avro, json_schema) write with the subject's latest registered schema, since a JavaScript value carries none: its
 * settings default to Kafka's production pair (auto.register.schemas=false, use.latest.version=true), and a topology
 * naming one under the other values fails to build naming the key, rather than silently doing otherwise.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ConfigValue } from "../../../../kernel/config/config-schema";
import type { TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";
import { buildTopology } from "../../../../providers/streams/engine/build-topology";
import { applicationConfig } from "../../../../providers/streams/streams-config";

function build(valueSerde: "avro" | "json_schema" | "json", values: Record<string, ConfigValue>): string {
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

test("the defaults build; auto.register.schemas=true and use.latest.version=false are refused naming the key, where avro is used only", () => {
  assert.is(build("avro", {}), "built");
  assert.is(build("avro", { "auto.register.schemas": false, "use.latest.version": true }), "built");
  assert.match(build("avro", { "auto.register.schemas": true }), /^auto\.register\.schemas=true: the avro serde has no schema to register/);
  assert.match(build("avro", { "use.latest.version": false }), /^use\.latest\.version=false: the avro serde writes with the subject's latest schema only/);
  assert.match(build("json_schema", { "auto.register.schemas": true }), /^auto\.register\.schemas=true: the json_schema serde has no schema to register/);
  assert.is(build("json_schema", { "json.fail.invalid.schema": true }), "built");
  assert.is(build("json", { "auto.register.schemas": true, "use.latest.version": false }), "built");
});

test.run();
