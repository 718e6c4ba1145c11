import type { ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      return {
        init(given) {
          context = given;
          context.schedule(100, "wall_clock_time", (time) => context.forward({ key: "tick", value: `wall ${time}`, timestamp: time }));
        },
        process(record) {
          context.forward(record);
        },
      };
    })
    .to("output");
}
