/**
 * Where records enter and leave a topology: source topics (Kafka Streams' StreamsBuilder.stream) and sinks
 * (KStream.to), to one topic or to the topic a TopicNameExtractor names, with a custom StreamPartitioner if given.
 */
import type { Consumed, Produced, TopicNameExtractor } from "../../../../kernel/contracts/streams/dsl";
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";

export function streamSource(builder: InternalTopologyBuilder, topics: string | string[], consumed: Consumed<any, any>): StreamHandle {
  const topicList = Array.isArray(topics) ? topics : [topics];
  if (topicList.length === 0) throw new Error("stream() needs at least one topic");
  const node = builder.addSource(topicList, consumed.keySerde, consumed.valueSerde, consumed.name, consumed.timestampExtractor, "stream");
  return { node, keySerde: consumed.keySerde, valueSerde: consumed.valueSerde, keyChanged: false };
}

/** Serdes not given fall back to the stream's. */
export function to(builder: InternalTopologyBuilder, parent: StreamHandle, topic: string | TopicNameExtractor<any, any>, produced: Produced<any, any>): void {
  if (typeof topic !== "string" && typeof topic?.extract !== "function") throw new TypeError("to() needs a topic name or a TopicNameExtractor (an object with extract)");
  const partitioner = produced.streamPartitioner;
  if (partitioner !== undefined && typeof partitioner.partitions !== "function") throw new TypeError("Produced.streamPartitioner needs a partitions() method");
  builder.addSink(topic, produced.keySerde ?? parent.keySerde, produced.valueSerde ?? parent.valueSerde, parent.node, produced.name, partitioner);
}
