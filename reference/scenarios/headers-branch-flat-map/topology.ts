import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const words = builder.stream<string, string>("input").flatMapValues((value) => value.split(" "));
  const [startsWithA, rest] = words.branch(
    (_key, value) => value.startsWith("a"),
    () => true,
  );
  startsWithA
    .map((key, value) => ({ key: value, value: key }))
    .merge(rest.selectKey((key, value) => key + value))
    .peek(() => undefined)
    .to("output");
}
