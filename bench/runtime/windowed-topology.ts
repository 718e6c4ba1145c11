/**
 * The bench's windowed count (one-second tumbling windows per key → topic), plain or with
 * suppress(untilWindowCloses): the price of final results beside every update.
 */
import type { StreamsBuilder } from "../../kernel/contracts/streams/dsl";
import { BufferConfig, StreamsRuntime, Suppressed, TimeWindows } from "../../providers/streams";

export function windowedCountRuntime(bootstrapServers: string[], stateDir: string, applicationId: string, input: string, output: string, suppressed: boolean): StreamsRuntime {
  const runtime = new StreamsRuntime({ bootstrapServers, streamsConfig: { "state.dir": stateDir } });
  runtime.addProvider({
    name: applicationId,
    version: "1",
    config: { "application.id": applicationId },
    topology: (builder: StreamsBuilder) => {
      const counts = builder.stream<string, string>(input).groupByKey().windowedBy(TimeWindows.ofSizeWithNoGrace(1_000)).count({ storeName: "counts" });
      (suppressed ? counts.suppress(Suppressed.untilWindowCloses(BufferConfig.unbounded())) : counts).toStream().to(output, { valueSerde: "long" });
    },
  });
  return runtime;
}
