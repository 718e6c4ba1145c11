/**
 * Planning a query asks the group who owns a key or hosts a store; while Kafka is out of reach that fails or
 * hangs. The plan is then NOT_AVAILABLE (after the retries, within the deadline), never an error that becomes an
 * HTTP 500 (found by the chaos soak while a proxy reset one instance's connections to the broker).
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import type { ApplicationHandle, StoreHandle } from "../../../kernel/contracts/streams/runtime";
import { planQuery } from "../../../plugins/applications-api/query-plan";
import type { QueryRequest } from "../../../plugins/applications-api/query-request";

const store = { name: "counts", type: "key_value", localPartitions: () => [0], queryable: () => false, readOnly: () => undefined } as unknown as StoreHandle;

function request(routingKey: string | undefined, retries: number): QueryRequest {
  return {
    type: "key_value",
    definition: { name: routingKey ? "get" : "all", parameters: [], routingKey },
    args: {},
    rawParams: { key: "k" },
    options: { retries, retryBackoffMs: 10, queryTimeoutMs: 1_000, remoteAccessAllowed: true },
  } as unknown as QueryRequest;
}

const unreachable = (asked: { count: number }) =>
  ({
    id: "wordcount",
    state: "RUNNING",
    ownerOf: () => (asked.count++, Promise.reject(new Error("Connection error: connect ECONNRESET"))),
    instances: () => (asked.count++, Promise.reject(new Error("Failed to find group coordinator"))),
  }) as unknown as ApplicationHandle;

test("a keyed and a fan-out query whose group cannot be asked are NOT_AVAILABLE after their retries", async () => {
  for (const routingKey of ["key", undefined]) {
    const asked = { count: 0 };
    const plan = await planQuery({ application: unreachable(asked), store, request: request(routingKey, 2) }, Date.now() + 1_000);
    assert.equal(plan, { outcome: "NOT_AVAILABLE" });
    assert.is(asked.count, 3, "asked once and retried twice");
  }
});

test("a group that does not answer is given up at the query's deadline", async () => {
  const hanging = { id: "wordcount", state: "RUNNING", instances: () => new Promise(() => undefined) } as unknown as ApplicationHandle;
  const started = Date.now();
  const plan = await planQuery({ application: hanging, store, request: request(undefined, 0) }, started + 200);
  assert.equal(plan, { outcome: "NOT_AVAILABLE" });
  assert.ok(Date.now() - started < 1_000, `gave up after ${Date.now() - started} ms`);
});

test.run();
