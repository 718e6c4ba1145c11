import type { ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      return {
        init(given) {
          context = given;
          context.schedule(10, "stream_time", (time) => context.forward({ key: "tick", value: `stream ${time}`, timestamp: time }));
        },
        process(record) {
          context.forward(record);
        },
      };
    })
    .to("output");
}
