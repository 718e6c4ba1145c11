import { suite } from "uvu";
import * as assert from "uvu/assert";
import type { RunningBroker } from "../../../providers/broker";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startBrokerWithTopics, startSluiceWithExamples, type SluiceWithExamples } from "../../helpers/streams";
import { query, recordsOf } from "./query-client";

/*
 * The group as the applications API shows it (docs/api.md#servers, #query-result), with two instances of the examples in this
 * process on one broker (`words` and `pageviews` with 4 partitions each): queries not keyed by `get` or `fetch`
 * go to every instance; a member without application.server is listed by its member id and named in failures;
 * a stopped instance still lists the others.
 */
const test = suite("the group's members in the applications API");

interface Member {
  server: string | null;
  member_id?: string;
  is_local: boolean;
  state?: string;
  stores: string[];
  assignments: { topic: string; partitions: number[] }[];
}

let broker: RunningBroker;
let here: SluiceWithExamples;
let there: SluiceWithExamples;
const serverOf = (sluice: SluiceWithExamples) => sluice.url.replace("http://", "");
const membersSeenBy = async (sluice: SluiceWithExamples): Promise<Member[]> => (await http(`${sluice.url}/api/v1/applications/wordcount`)).json().instances;

test.before(async () => {
  let bootstrap: string;
  ({ broker, bootstrap } = await startBrokerWithTopics(["words", "pageviews"]));
  here = await startSluiceWithExamples({ "streams.bootstrap.servers": bootstrap, "streams.auto.create.topics": "true" });
  there = await startSluiceWithExamples({ "streams.bootstrap.servers": bootstrap, "streams.auto.create.topics": "true" });
  await eventually(
    async () => {
      const members = await membersSeenBy(here);
      return members.length === 2 && members.every((member) => member.stores.includes("counts"));
    },
    { timeoutMs: 30_000, what: "both instances to host the counts store" },
  );
});

test.after(async () => {
  await there?.close();
  await here?.close();
  await broker?.close();
});

test("fetch_time_range with remote access asks every instance hosting the store, not the key's owner", async () => {
  const now = Date.now();
  await here.produce("pageviews", ["ann", "bob", "cyd"].map((user) => ({ key: user, value: JSON.stringify({ user, page: "home" }), timestamp: String(now) })));
  const body = { type: "window", set_options: { remote_access_allowed: true, query_timeout_ms: 5_000 }, query: { fetch_time_range: { key: "home", time_from: now - 120_000, time_to: now + 60_000 } } };
  // The setup waited for wordcount's group only: pageviews' may still be rebalancing (under the cooperative protocol a
  // join that moves tasks takes two rebalances), and a spread query answers PARTIAL until both instances run.
  const answer = await eventually(
    async () => {
      const result = await query(here.url, "pageviews", "views-per-minute", body);
      return result.status === "SUCCESS" && recordsOf(result).some((record) => record.value === 3) ? result : undefined;
    },
    { timeoutMs: 20_000, what: "three views of home counted, both instances answering" },
  );
  assert.is(answer.status, "SUCCESS");
  assert.equal(answer.result.success.map((entry) => entry.server).sort(), [serverOf(here), serverOf(there)].sort());
  assert.is(recordsOf(answer).length, 1, "the key lives on one instance only");
});

test("a member without application.server is listed by its member id, and a query needing it names it", async () => {
  const blind = await startSluiceWithExamples({ "streams.bootstrap.servers": here.brokers.join(","), "streams.auto.create.topics": "true", "server.enable": "false" });
  try {
    const serverless = await eventually(
      async () => {
        const members = await membersSeenBy(here);
        const found = members.find((member) => member.server === null);
        return members.length === 3 && found?.stores.includes("counts") ? found : undefined;
      },
      { timeoutMs: 30_000, what: "the member without a server to host part of counts" },
    );
    assert.type(serverless.member_id, "string");
    assert.ok(serverless.member_id!.length > 0);
    assert.is(serverless.is_local, false);
    // Until the group settles after the third member joined, the two servers may not answer yet.
    const answer = await eventually(
      async () => {
        const result = await query(here.url, "wordcount", "counts", { type: "key_value", set_options: { remote_access_allowed: true, query_timeout_ms: 5_000 }, query: { all: {} } });
        return result.status === "PARTIAL" && result.result.success.length === 2 ? result : undefined;
      },
      { timeoutMs: 20_000, what: "both servers answering" },
    );
    assert.equal(
      answer.result.failure.map((entry) => ({ ...entry, errors: entry.errors.length })),
      [{ server: null, member_id: serverless.member_id, remote: true, errors: 1 }],
    );
    assert.match(answer.result.failure[0].errors[0].message, serverless.member_id!);
    assert.ok(answer.result.success.every((entry) => entry.server !== null), "nobody asked a server-less member");
  } finally {
    await blind.close();
  }
});

test("a stopped instance still lists the group's other members, and itself with its state", async () => {
  const stopped = await http(`${here.url}/api/v1/streams/wordcount/stop`, { method: "DELETE" });
  assert.is(stopped.status, 200);
  const members = await eventually(
    async () => {
      const seen = await membersSeenBy(here);
      return seen.some((member) => member.server === serverOf(there)) ? seen : undefined;
    },
    { timeoutMs: 20_000, what: "the other instance listed" },
  );
  assert.equal(members.find((member) => member.is_local), {
    server: serverOf(here),
    is_local: true,
    state: "NOT_RUNNING",
    stores: [],
    assignments: [],
    standby_assignments: [],
  });
  assert.equal(members.filter((member) => !member.is_local).map((member) => member.server), [serverOf(there)]);
});

test.run();
