/** The bench's stateless topology (mapValues + filter → topic), as one application of a runtime of its own. */
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { StreamsRuntime } from "../../providers/streams";

export const STATELESS_INPUT = "bench-in";

export function statelessRuntime(bootstrapServers: string[], stateDir: string, applicationId: string, output: string): StreamsRuntime {
  const runtime = new StreamsRuntime({ bootstrapServers, streamsConfig: { "state.dir": stateDir } });
  runtime.addProvider({
    name: "stateless",
    version: "1",
    config: { "application.id": applicationId },
    topology: (builder: StreamsBuilder) => {
      builder.stream<string, string>(STATELESS_INPUT).mapValues((value) => value.toUpperCase()).filter((_, value) => value.length > 3).to(output);
    },
  });
  return runtime;
}
