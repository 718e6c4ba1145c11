/** The benches' stateless topology (mapValues + filter → topic), as a provider and as one application of a runtime of its own. */
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import type { TopologyContext, TopologyProvider } from "../../kernel/contracts/streams/topology-provider";
import type { ThreadSource } from "../../providers/streams/kafka/processing/worker/thread-source";
import { StreamsRuntime } from "../../providers/streams";

export const STATELESS_INPUT = "bench-in";

function statelessTopology(builder: StreamsBuilder, input: string, output: string): void {
  builder.stream<string, string>(input).mapValues((value) => value.toUpperCase()).filter((_, value) => value.length > 3).to(output);
}

export function statelessProvider(applicationId: string, input: string, output: string): TopologyProvider {
  return { name: "stateless", version: "1", config: { "application.id": applicationId }, topology: (builder) => statelessTopology(builder, input, output) };
}

/**
 * The same topology as a class a worker thread can load again (see StreamThreads): its application.id and topics are
 * its instance's configuration (`application.id`, `bench.input`, `bench.output`), not values captured in a closure.
 */
export class StatelessBenchProvider implements TopologyProvider {
  readonly name = "stateless";
  readonly version = "1";
  readonly config = {};

  topology(builder: StreamsBuilder, { config }: TopologyContext): void {
    statelessTopology(builder, String(config["bench.input"]), String(config["bench.output"]));
  }
}

/** Where a worker thread finds StatelessBenchProvider. */
export const STATELESS_BENCH_SOURCE: ThreadSource = { provider: { file: __filename, exportName: StatelessBenchProvider.name, construct: true }, code: [] };

export function statelessRuntime(bootstrapServers: string[], stateDir: string, applicationId: string, output: string, guarantee = "at_least_once", threads = 1): StreamsRuntime {
  const runtime = new StreamsRuntime({ bootstrapServers, streamsConfig: { "state.dir": stateDir, "processing.guarantee": guarantee, "num.stream.threads": threads } });
  runtime.addProvider(statelessProvider(applicationId, STATELESS_INPUT, output));
  return runtime;
}
