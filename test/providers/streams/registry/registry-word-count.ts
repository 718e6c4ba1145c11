/**
 * The registry serde tests' topology: counts the words of `<id>-in`'s sentences into `<id>-out` as WordCount records,
 * both written with the registry serde `serde` (Avro by default).
 */
import type { StreamsBuilder } from "../../../../kernel/contracts/streams/dsl";
import type { ConfigValue, TopologyProvider } from "../../../../kernel/contracts/streams/topology-provider";

export const SENTENCE = { type: "record", name: "Sentence", namespace: "test", fields: [{ name: "text", type: "string" }] };
export const WORD_COUNT = { type: "record", name: "WordCount", namespace: "test", fields: [{ name: "word", type: "string" }, { name: "count", type: "long" }] };

export function registryWordCount(id: string, config: Record<string, ConfigValue>, serde: "avro" | "json_schema" | "protobuf" = "avro"): TopologyProvider {
  return {
    name: "RegistryWordCount",
    version: "1.0.0",
    config: { "application.id": id, ...config },
    topology(builder: StreamsBuilder) {
      builder
        .stream<string | null, { text: string }>(`${id}-in`, { keySerde: "string", valueSerde: serde })
        .flatMapValues((sentence) => sentence.text.split(" "))
        .groupBy((_key, word) => word, { keySerde: "string", valueSerde: "string" })
        .count({ storeName: "counts", keySerde: "string", valueSerde: "long" })
        .toStream()
        .map((word, count) => ({ key: word, value: { word, count } }))
        .to(`${id}-out`, { keySerde: "string", valueSerde: serde });
    },
  };
}
