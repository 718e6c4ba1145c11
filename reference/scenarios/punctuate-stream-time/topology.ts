import type { StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      context.schedule(10, "stream_time", (time) => context.forward({ key: "tick", value: `stream ${time}`, timestamp: time }));
      return (record) => context.forward(record);
    }))
    .to("output");
}
