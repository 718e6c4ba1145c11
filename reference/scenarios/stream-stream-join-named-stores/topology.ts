import { JoinWindows, StreamJoined, type StreamsBuilder } from "sluice";

interface View {
  page: string;
}

export default function topology(builder: StreamsBuilder): void {
  const clicks = builder.stream<string, number>("clicks", { keySerde: "string", valueSerde: "long" });
  const views = builder.stream<string, View>("views", { keySerde: "string", valueSerde: "json" });
  clicks
    .leftJoin(views, (click, view) => `${click}@${view === null ? "-" : view.page}`, JoinWindows.ofTimeDifferenceWithNoGrace(0).after(10),
      StreamJoined.with<string, number, View>("string", "long", "json").withStoreName("pairs").withName("click-view"))
    .to("output", { valueSerde: "string" });
}
