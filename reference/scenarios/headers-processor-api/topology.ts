import { Record, RecordHeaders, type ProcessorContext, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .process<string, string>(() => {
      let context!: ProcessorContext<string, string>;
      const text = (value: Buffer | null) => (value === null ? "null" : value.toString("utf8"));
      return {
        init(given) {
          context = given;
        },
        process(record) {
          const traces = [...record.headers.headers("trace")].map((header) => text(header.value));
          const last = record.headers.lastHeader("trace");
          const summary = `${traces.join("+")}/${last === null ? "none" : text(last.value)}/${record.headers.toArray().length}`;
          if (record.value === "plain") context.forward(new Record(record.key, summary, record.timestamp));
          else if (record.value === "replace") context.forward(record.withValue(summary).withHeaders(new RecordHeaders().add("replaced", "yes")));
          else {
            const out = record.withValue(summary);
            out.headers.remove("drop").add("seen", Buffer.from(record.key)).add("nothing", null);
            context.forward(out);
            // the received record's headers are its own: the change above does not reach it
            context.forward(record.withKey(`${record.key}-original`));
          }
        },
      };
    })
    .to("output");
}
