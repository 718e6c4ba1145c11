/** Where records enter and leave a topology: source topics (Kafka Streams' StreamsBuilder.stream) and sinks (KStream.to). */
import type { Consumed, Produced } from "../../../../kernel/contracts/streams/dsl";
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";

export function streamSource(builder: InternalTopologyBuilder, topics: string | string[], consumed: Consumed<any, any>): StreamHandle {
  const topicList = Array.isArray(topics) ? topics : [topics];
  if (topicList.length === 0) throw new Error("stream() needs at least one topic");
  const node = builder.addSource(topicList, consumed.keySerde, consumed.valueSerde, consumed.name, consumed.timestampExtractor);
  return { node, keySerde: consumed.keySerde, valueSerde: consumed.valueSerde, keyChanged: false };
}

/** Serdes not given fall back to the stream's. */
export function to(builder: InternalTopologyBuilder, parent: StreamHandle, topic: string, produced: Produced<any, any>): void {
  builder.addSink(topic, produced.keySerde ?? parent.keySerde, produced.valueSerde ?? parent.valueSerde, parent.node, produced.name);
}
