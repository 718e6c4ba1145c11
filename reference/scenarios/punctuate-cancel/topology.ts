import type { Cancellable, ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      return {
        init(given) {
          context = given;
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
        },
        process(record) {
          context.forward(record);
        },
      };
    })
    .to("output");
}
