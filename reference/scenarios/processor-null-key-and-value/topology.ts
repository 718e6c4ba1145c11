import type { ProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string | null, string | null>("input")
    .process<string | null, string | null>(() => {
      let context!: ProcessorContext<string | null, string | null>;
      return {
        init(given) {
          context = given;
        },
        process(record) {
          context.forward({ key: record.key, value: record.key === null ? "no key" : record.value, timestamp: record.timestamp });
        },
      };
    })
    .to("output");
}
