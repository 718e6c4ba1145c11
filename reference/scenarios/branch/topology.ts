import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const [short, long] = builder.stream<string, string>("input").branch(
    (_key, value) => value.length > 0 && value.length <= 3,
    (_key, value) => value.length > 3,
  );
  short.to("short");
  long.to("long");
}
