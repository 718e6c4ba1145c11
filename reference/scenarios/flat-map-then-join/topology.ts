import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const users = builder.table<string, string>("users", {}, { storeName: "users-store" });
  builder
    .stream<string, string>("clicks")
    .flatMap((key, value) => value.split(" ").map((user) => ({ key: user, value: key })))
    .join(users, (click, user) => `${user}<-${click}`)
    .to("output");
}
