/** wordcount: lines of `words` → lowercase words → counts in key_value store `counts` → `word-counts`. */
import type { StreamsBuilder, TopologyProvider } from "sluice";

export class WordCountProvider implements TopologyProvider {
  readonly name = "WordCount";
  readonly version = "1.0.0";
  readonly description = "Counts the words of the lines written to topic 'words'";
  readonly config = { "application.id": "wordcount" };
  readonly eventStreams = [{ type: "word-counts", queueSize: 10_000, limitHandler: "drop_head" as const }];

  topology(builder: StreamsBuilder): void {
    const counts = builder
      .stream<string | null, string>("words", { keySerde: "string", valueSerde: "string" })
      .flatMapValues((line) => line.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((word) => word.length > 0), "split")
      .groupBy((_key, word) => word, { keySerde: "string", valueSerde: "string", name: "words-by-word" })
      .count({ storeName: "counts", keySerde: "string", valueSerde: "long" })
      .toStream();
    counts.to("word-counts", { keySerde: "string", valueSerde: "long" });
    counts.toEventStream("word-counts");
  }
}
