/**
 * Interactive queries over REST (docs/api.md#query-request) answered from a user's own window and session stores
 * (#35 point 7): a windowed count in a WindowBytesStoreSupplier's store and a session count in a
 * SessionBytesStoreSupplier's, running in Sluice on its embedded broker, are queried as the built-in stores are.
 */
import { test } from "uvu";
import * as assert from "uvu/assert";
import { SessionWindows, TimeWindows, TOPOLOGY_PROVIDER_CONTRACT, type StreamsBuilder, type TopologyProvider } from "../../../index";
import { eventually } from "../../helpers/eventually";
import { http } from "../../helpers/sluice";
import { startSluiceWithExamples } from "../../helpers/streams";
import { countingSessionSupplier, countingWindowSupplier } from "../../helpers/counting-windowed-stores";
import { streamsClient } from "../../plugins/streams-api/streams-client";

const MINUTE = 60_000;
const windows = countingWindowSupplier("per-minute", 60 * MINUTE, MINUTE);
const sessions = countingSessionSupplier("visits", 60 * MINUTE);

const app: TopologyProvider = {
  name: "SuppliedCounts",
  version: "1.0.0",
  config: { "application.id": "supplied-counts", "default.key.serde": "string", "default.value.serde": "string" },
  topology(builder: StreamsBuilder) {
    const grouped = builder.stream<string, string>("visits-in").groupByKey();
    grouped.windowedBy(TimeWindows.ofSizeWithNoGrace(MINUTE)).count({ storeName: "per-minute", storeSupplier: windows });
    grouped.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(MINUTE)).count({ storeName: "visits", storeSupplier: sessions });
  },
};

async function query(url: string, store: string, body: object): Promise<{ status: number; records: unknown[] }> {
  const answer = await http(`${url}/api/v1/applications/supplied-counts/stores/${store}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: answer.status, records: answer.json().result?.success?.flatMap((server: { records: unknown[] }) => server.records) ?? [] };
}

test("window fetches and session fetches over REST read the user's stores", async () => {
  const sluice = await startSluiceWithExamples({}, { [TOPOLOGY_PROVIDER_CONTRACT]: [app] });
  try {
    await streamsClient(sluice.url, "supplied-counts").waitForState(["RUNNING"]);
    await sluice.produce("visits-in", [
      { key: "ann", value: "a", timestamp: String(1_000) },
      { key: "ann", value: "b", timestamp: String(20_000) },
      { key: "bob", value: "c", timestamp: String(70_000) },
    ]);
    const fetchAll = { type: "timestamped_window", query: { fetch_all: { time_from: 0, time_to: 10 * MINUTE } } };
    await eventually(async () => (await query(sluice.url, "per-minute", fetchAll)).records.length === 2, { what: "both windows counted", timeoutMs: 20_000 });
    assert.equal((await query(sluice.url, "per-minute", fetchAll)).records, [
      { key: { key: "ann", window_start: 0, window_end: MINUTE }, value: 2, timestamp: 20_000 },
      { key: { key: "bob", window_start: MINUTE, window_end: 2 * MINUTE }, value: 1, timestamp: 70_000 },
    ]);
    const one = await query(sluice.url, "per-minute", { type: "timestamped_window", query: { fetch: { key: "ann", time: 0 } } });
    assert.equal(one.records, [{ key: { key: "ann", window_start: 0, window_end: MINUTE }, value: 2, timestamp: 20_000 }]);
    const visits = await query(sluice.url, "visits", { type: "session", query: { fetch: { key: "ann" } } });
    assert.equal(visits.records, [{ key: { key: "ann", window_start: 1_000, window_end: 20_000 }, value: 2 }]);
    assert.ok(windows.made.some((store) => store.windows.length === 2), "the windows live in the user's store");
    assert.ok(sessions.made.some((store) => store.sessions.length === 2), "the sessions live in the user's store");
  } finally {
    await sluice.close();
  }
});

test.run();
