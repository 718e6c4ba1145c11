import type { ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      return {
        init(given) {
          context = given;
        },
        process(record) {
          context.forward({ key: record.key, value: `${context.applicationId}/${context.taskId}`, timestamp: record.timestamp });
        },
      };
    })
    .to("output");
}
