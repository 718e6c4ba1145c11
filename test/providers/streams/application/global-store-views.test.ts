/**
 * A global store's handle by application state: a rebalance leaves the store whole, so it answers while REBALANCING
 * as while RUNNING (Kafka Streams' store() checks isRunningOrRebalancing), and not otherwise. A task's store answers a
 * key while REBALANCING too (a task a cooperative rebalance leaves in place keeps answering), but queries over every
 * partition need RUNNING.
 */
import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { ApplicationState } from "../../../../kernel/contracts/streams/runtime";
import type { ReadOnlyStore } from "../../../../kernel/contracts/streams/stores";
import { silentLogger } from "../../../../kernel/logger";
import { ApplicationViews } from "../../../../providers/streams/application/application-views";
import { buildTopology } from "../../../../providers/streams/engine/build-topology";
import type { RunView } from "../../../../providers/streams/kafka/processing/run-view";
import { applicationConfig } from "../../../../providers/streams/streams-config";

const test = suite("application views: global stores by state");

const ID = "views-global";
const topology = buildTopology(
  {
    name: ID,
    version: "1",
    config: { "application.id": ID },
    topology(builder) {
      builder.globalTable<string, string>("customers", {}, { storeName: "customers-global" });
      builder.stream<string, string>("words").groupByKey().count({ storeName: "counts" });
    },
  },
  applicationConfig([{ values: { "application.id": ID }, source: "the test" }]),
);

const globalReadOnly = { name: "the global store" } as unknown as ReadOnlyStore;
const taskReadOnly = { name: "a task's store" } as unknown as ReadOnlyStore;
const run = {
  globalStore: (store: string) => (store === "customers-global" ? globalReadOnly : undefined),
  readOnlyStore: () => taskReadOnly,
  queryablePartitions: () => [0],
} as unknown as RunView;

function viewsIn(state: ApplicationState): ApplicationViews {
  return new ApplicationViews({ id: ID, topology, server: null, endpoint: { bootstrapServers: ["127.0.0.1:9"] }, logger: silentLogger, state: () => state, run: () => run });
}

test("a global store answers while RUNNING and while REBALANCING, and at no other time", () => {
  const answering = (["CREATED", "REBALANCING", "RUNNING", "PENDING_SHUTDOWN", "NOT_RUNNING", "ERROR"] as ApplicationState[]).filter((state) => {
    const handle = viewsIn(state).store("customers-global")!;
    return handle.queryable() && handle.readOnly(0) === globalReadOnly && handle.localPartitions().length === 1;
  });
  assert.equal(answering, ["REBALANCING", "RUNNING"]);
});

test("a task's store answers a key while RUNNING and REBALANCING, and queries over every partition while RUNNING only", () => {
  assert.is(viewsIn("RUNNING").store("counts")!.readOnly(0), taskReadOnly);
  assert.is(viewsIn("REBALANCING").store("counts")!.readOnly(0), taskReadOnly);
  assert.is(viewsIn("NOT_RUNNING").store("counts")!.readOnly(0), undefined);
  assert.is(viewsIn("RUNNING").store("counts")!.queryable(), true);
  assert.is(viewsIn("REBALANCING").store("counts")!.queryable(), false);
});

test.run();
