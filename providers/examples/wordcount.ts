/**
 * wordcount: lines of `words` → lowercase words → counts in key_value store `counts` → `word-counts`. The topics are
 * settings (`input.topic`, `output.topic`), so more instances can be deployed side by side on topics of their own.
 */
import type { StreamsBuilder, TopologyContext, TopologyProvider } from "sluice";

export class WordCountProvider implements TopologyProvider {
  readonly name = "WordCount";
  readonly version = "1.0.0";
  readonly description = "Counts the words of the lines written to its input topic (input.topic, default 'words')";
  readonly config = { "application.id": "wordcount", "input.topic": "words", "output.topic": "word-counts" };
  readonly eventStreams = [{ type: "word-counts", queueSize: 10_000, limitHandler: "drop_head" as const }];

  topology(builder: StreamsBuilder, { config }: TopologyContext): void {
    const counts = builder
      .stream<string | null, string>(String(config["input.topic"]), { keySerde: "string", valueSerde: "string" })
      .flatMapValues((line) => line.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter((word) => word.length > 0), "split")
      .groupBy((_key, word) => word, { keySerde: "string", valueSerde: "string", name: "words-by-word" })
      .count({ storeName: "counts", keySerde: "string", valueSerde: "long" })
      .toStream();
    counts.to(String(config["output.topic"]), { keySerde: "string", valueSerde: "long" });
    counts.toEventStream("word-counts");
  }
}
