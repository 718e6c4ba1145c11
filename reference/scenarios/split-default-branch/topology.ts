import { Branched, type StreamsBuilder } from "sluice";

export default function topology(builder: StreamsBuilder): void {
  builder
    .stream<string, string>("input")
    .split("kind-")
    .branch((_key, value) => /^[0-9]+$/.test(value), Branched.withConsumer((stream) => stream.to("numbers"), "numbers"))
    .branch((_key, value) => /^[a-z]+$/.test(value), Branched.withConsumer((stream) => stream.to("words"), "words"))
    .defaultBranch(Branched.withConsumer((stream) => stream.to("rest")));
}
