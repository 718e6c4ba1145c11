import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const users = builder.table<string, string>("users", {}, { storeName: "users-store" });
  builder
    .stream<string, string>("clicks")
    .leftJoin(users, (_page, user) => user ?? "anonymous")
    .groupBy((_key, user) => user)
    .count({ storeName: "per-user" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
