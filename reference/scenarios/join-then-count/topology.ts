import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const users = builder.table<string, string>("users", {}, { storeName: "users-store", storeType: "timestamped_key_value" });
  builder
    .stream<string, string>("clicks")
    .leftJoin(users, (_page, user) => user ?? "anonymous")
    .groupBy((_key, user) => user)
    .count({ storeName: "per-user", storeType: "timestamped_key_value" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
