import type { StreamsBuilder } from "sluice";
import { processor } from "../processors";

export default function topology(builder: StreamsBuilder): void {
  const routed = builder.stream<string, string>("input").process(
    processor<string, string, string, string>((context) => (record) => {
      if (record.value === "Both") context.forward(record);
      else context.forward(record, record.value === "Upper" ? "upper" : "lower");
    }),
    [],
    "router",
  );
  routed.mapValues((value) => value.toUpperCase(), "upper").to("upper-out");
  routed.mapValues((value) => value.toLowerCase(), "lower").to("lower-out");
}
