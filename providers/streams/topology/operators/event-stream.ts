/**
 * Sluice's own sink: every record of a stream goes into one of the application's declared event streams, with
 * the stream's serdes as far as the DSL knows them (for rendering the events).
 */
import type { StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { recordProcessor } from "../processor-shapes";

const eventStreamProcessor = (type: string) =>
  recordProcessor((record, context) => context.send(type, record.key, record.value, record.timestamp));

export function toEventStream(builder: InternalTopologyBuilder, parent: StreamHandle, type: string, name?: string): void {
  builder.definition.eventTypes.add(type);
  const senders = builder.definition.eventSerdes.get(type) ?? [];
  builder.definition.eventSerdes.set(type, [...senders, { keySerde: parent.keySerde, valueSerde: parent.valueSerde }]);
  builder.addProcessor("eventstream", eventStreamProcessor(type), [parent.node], [], name);
}
