import type { Cancellable, StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      let streamTicks = 0;
      let wallTicks = 0;
      const streamPunctuator: Cancellable = context.schedule(10, "stream_time", (time) => {
        context.forward({ key: "tick", value: `stream ${time}`, timestamp: time });
        if (++streamTicks === 2) streamPunctuator.cancel();
      });
      const wallPunctuator: Cancellable = context.schedule(10, "wall_clock_time", (time) => {
        context.forward({ key: "tick", value: `wall ${time}`, timestamp: time });
        if (++wallTicks === 1) wallPunctuator.cancel();
      });
      return (record) => context.forward(record);
    }))
    .to("output");
}
