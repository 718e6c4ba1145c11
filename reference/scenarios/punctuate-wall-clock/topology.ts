import type { StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      context.schedule(100, "wall_clock_time", (time) => context.forward({ key: "tick", value: `wall ${time}`, timestamp: time }));
      return (record) => context.forward(record);
    }))
    .to("output");
}
