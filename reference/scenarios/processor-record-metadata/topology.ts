import type { ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>(["first", "second"])
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      const describe = () => {
        const metadata = context.recordMetadata();
        return `${metadata.topic}:${metadata.partition}:${metadata.offset}`;
      };
      return {
        init(given) {
          context = given;
          context.schedule(100, "wall_clock_time", (time) => context.forward({ key: "punctuation", value: describe(), timestamp: time }));
        },
        process(record) {
          context.forward({ key: record.key, value: describe(), timestamp: record.timestamp });
        },
      };
    })
    .to("output");
}
