import type { FixedKeyProcessorContext, StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .processValues<string>(() => {
      let context!: FixedKeyProcessorContext<string, string>;
      return {
        init: (given) => void (context = given),
        process: (record) => context.forward(record.withValue(`${record.value}@${record.timestamp}`)),
      };
    })
    .to("output");
}
