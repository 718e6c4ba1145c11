import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .flatMap((key, value) => value.split(" ").filter((word) => word.length > 0).map((word) => ({ key: word, value: key })))
    .to("output");
}
