import type { StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  const employees = builder.table<string, string>("employees");
  const desks = builder.table<string, string>("desks");
  employees
    .join(desks, (team) => team)
    .groupBy((employee, team) => ({ key: team, value: employee }))
    .count({ storeName: "team-sizes" })
    .toStream()
    .to("output", { valueSerde: "long" });
}
