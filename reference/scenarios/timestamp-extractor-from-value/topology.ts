import type { ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input", {
      keySerde: "string",
      valueSerde: "string",
      // "<time>:<payload>" carries its event time; "same:<payload>" takes the partition time; a negative time drops the record.
      timestampExtractor: {
        extract(record, partitionTime) {
          const time = String(record.value).split(":")[0];
          return time === "same" ? partitionTime : Number(time);
        },
      },
    })
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      return {
        init: (given) => void (context = given),
        process: (record) => context.forward(record.withValue(`${record.value}@${context.currentStreamTimeMs()}`)),
      };
    })
    .to("output");
}
