/**
 * An application whose cluster does not answer when it starts (a broker down or restarting) stays REBALANCING and
 * keeps trying, as a Kafka Streams application's clients keep reconnecting; once a broker listens there it runs. It
 * used to go to ERROR at once and stay there (restart.on.error=never).
 */
import net from "node:net";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { TOPOLOGY_PROVIDER_CONTRACT, type TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { startBroker, type RunningBroker } from "../../../providers/broker";
import { eventually } from "../../helpers/eventually";
import { http, startSluice, type RunningSluice } from "../../helpers/sluice";

const test = suite<{ broker?: RunningBroker; sluice?: RunningSluice }>("an application whose cluster is unreachable at start");

test.after.each(async (context) => {
  await context.sluice?.close();
  await context.broker?.close();
});

/** A loopback port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const provider: TopologyProvider = {
  name: "late-cluster",
  version: "1",
  config: { "application.id": "late-cluster" },
  topology: (builder) => builder.stream<string, string>("late-in").to("late-out"),
};

test("stays REBALANCING while no broker answers, then runs once one does", async (context) => {
  const port = await freePort();
  context.sluice = await startSluice({
    services: { [TOPOLOGY_PROVIDER_CONTRACT]: [provider] },
    overrides: { "streams.bootstrap.servers": `127.0.0.1:${port}`, "streams.auto.create.topics": "true" },
  });
  const url = context.sluice.url;
  const state = async () => ((await http(`${url}/api/v1/streams/late-cluster`)).json() as { state: { state: string } }).state.state;
  const states = new Set<string>();
  // Several starts fail meanwhile (the retries begin 100 ms apart).
  const until = Date.now() + 1_500;
  while (Date.now() < until) states.add(await state());
  assert.equal([...states], ["REBALANCING"]);

  context.broker = await startBroker({ port, storage: "memory", initialRebalanceDelayMs: 0 });
  await eventually(async () => (await state()) === "RUNNING", { what: "the application RUNNING once the broker listens", timeoutMs: 30_000 });
});

test.run();
