import type { StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process(processor<string, string, string, string>((context) => {
      return (record) => context.forward({ key: record.key, value: `${context.applicationId}/${context.taskId}`, timestamp: record.timestamp });
    }))
    .to("output");
}
