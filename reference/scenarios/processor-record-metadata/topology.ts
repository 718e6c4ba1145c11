import type { StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>(["first", "second"])
    .process(processor<string, string, string, string>((context) => {
      const describe = () => {
        const metadata = context.recordMetadata();
        return `${metadata.topic}:${metadata.partition}:${metadata.offset}`;
      };
      context.schedule(100, "wall_clock_time", (time) => context.forward({ key: "punctuation", value: describe(), timestamp: time }));
      return (record) => context.forward({ key: record.key, value: describe(), timestamp: record.timestamp });
    }))
    .to("output");
}
