import { suite } from "uvu";
import * as assert from "uvu/assert";
import { TOPOLOGY_PROVIDER_CONTRACT, type StreamsBuilder, type TopologyProvider } from "../../../../providers/streams";
import { http } from "../../../helpers/sluice";
import { startSluiceWithExamples, type SluiceWithExamples } from "../../../helpers/streams";
import { deploy, terminate } from "../../../plugins/streams-api/deployments-client";
import { streamsClient } from "../../../plugins/streams-api/streams-client";

/** One version of a provider registered with autostart: false (as `Sluice.register` would add it). */
const echo = (version: string): TopologyProvider => ({
  name: "Echo",
  version,
  description: `Copies echo-in to echo-out (${version})`,
  autostart: false,
  config: { "application.id": "echo", "ssl.key.password": "not-for-display" },
  eventStreams: [],
  topology(builder: StreamsBuilder) {
    builder.stream<string, string>("echo-in").to("echo-out");
  },
});

interface Context {
  sluice: SluiceWithExamples;
}

const catalogue = suite<Context>("the topology catalogue and versions");

catalogue.before(async (context) => {
  context.sluice = await startSluiceWithExamples({}, { [TOPOLOGY_PROVIDER_CONTRACT]: ["1.9.0", "1.10.0", "1.0.0"].map(echo) });
});
catalogue.after(async ({ sluice }) => sluice?.close());

catalogue("a provider with autostart: false is listed with its versions in order, newest as latest, and does not run", async ({ sluice }) => {
  const topology = (await http(`${sluice.url}/api/v1/topologies/Echo`)).json();
  assert.equal(topology.versions, ["1.0.0", "1.9.0", "1.10.0"]);
  assert.is(topology.latest, "1.10.0");
  assert.is(topology.description, "Copies echo-in to echo-out (1.10.0)");
  assert.is(topology.autostart, false);
  assert.equal(topology.config, { "application.id": "echo", "ssl.key.password": "[hidden]" }, "secrets hidden");
  assert.is((await http(`${sluice.url}/api/v1/topologies/Echo/versions/1.9.0`)).json().description, "Copies echo-in to echo-out (1.9.0)");
  assert.not.ok((await http(`${sluice.url}/api/v1/streams`)).json().includes("echo"));
});

catalogue("a deploy runs the version asked for, or the newest one", async ({ sluice }) => {
  for (const [id, version, expected] of [["echo-old", "1.9.0", "1.9.0"], ["echo-new", undefined, "1.10.0"], ["echo-latest", "latest", "1.10.0"]] as const) {
    const res = await deploy(sluice.url, { topology: "Echo", version, config: { "application.id": id } });
    assert.is(res.status, 201, res.text);
    const instance = streamsClient(sluice.url, id);
    await instance.waitForState(["RUNNING"]);
    assert.is((await instance.json()).version, expected, id);
    assert.is((await instance.json()).config["ssl.key.password"], "[hidden]");
    assert.is((await terminate(sluice.url, id, { cleanup: true })).status, 200);
  }
});

catalogue.run();
