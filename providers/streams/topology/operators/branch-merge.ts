/** Splitting a stream by predicates and merging streams (Kafka Streams' KStreamBranch, KStreamImpl.merge). */
import { nextStream, type StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { passThroughProcessor, recordProcessor } from "../processor-shapes";

/** Branch `index` keeps the records that match predicate `index` and none before it. */
const branchProcessor = (predicates: ((key: any, value: any) => boolean)[], index: number) =>
  recordProcessor((record, context) => {
    const first = predicates.findIndex((predicate) => predicate(record.key, record.value));
    if (first === index) context.forward(record);
  });

/** One stream per predicate; a record goes to the first predicate it matches, or nowhere. */
export function branch(builder: InternalTopologyBuilder, parent: StreamHandle, predicates: ((key: any, value: any) => boolean)[]): StreamHandle[] {
  return predicates.map((_, index) => nextStream(builder, parent, "branch", branchProcessor(predicates, index), undefined, {}));
}

/** The merged stream is re-keyed when either input is. */
export function merge(builder: InternalTopologyBuilder, parent: StreamHandle, other: StreamHandle, name?: string): StreamHandle {
  const node = builder.addProcessor("merge", passThroughProcessor(), [parent.node, other.node], [], name);
  return { node, keySerde: parent.keySerde, valueSerde: parent.valueSerde, keyChanged: parent.keyChanged || other.keyChanged };
}
