/** The benches' stateless topology (mapValues + filter → topic), as a provider and as one application of a runtime of its own. */
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import type { TopologyProvider } from "../../kernel/contracts/streams/topology-provider";
import { StreamsRuntime } from "../../providers/streams";

export const STATELESS_INPUT = "bench-in";

export function statelessProvider(applicationId: string, input: string, output: string): TopologyProvider {
  return {
    name: "stateless",
    version: "1",
    config: { "application.id": applicationId },
    topology: (builder: StreamsBuilder) => {
      builder.stream<string, string>(input).mapValues((value) => value.toUpperCase()).filter((_, value) => value.length > 3).to(output);
    },
  };
}

export function statelessRuntime(bootstrapServers: string[], stateDir: string, applicationId: string, output: string, guarantee = "at_least_once", threads = 1): StreamsRuntime {
  const runtime = new StreamsRuntime({ bootstrapServers, streamsConfig: { "state.dir": stateDir, "processing.guarantee": guarantee, "num.stream.threads": threads } });
  runtime.addProvider(statelessProvider(applicationId, STATELESS_INPUT, output));
  return runtime;
}
