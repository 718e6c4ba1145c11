import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const users = builder.table<string, string>("users", {}, { storeName: "users-store" });
  builder
    .stream<string, string>("clicks")
    .selectKey((_key, value) => value.split(":")[0])
    .leftJoin(users, (click, user) => `${user ?? "?"}@${click.split(":")[1]}`)
    .to("output");
}
