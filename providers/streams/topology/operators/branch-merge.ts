/**
 * Splitting a stream by predicates and merging streams (Kafka Streams' KStreamBranch, BranchedKStreamImpl,
 * KStreamImpl.merge).
 */
import { nextStream, type StreamHandle } from "../dsl-handles";
import type { InternalTopologyBuilder } from "../internal-topology-builder";
import { passThroughProcessor, recordProcessor } from "../processor-shapes";

type Predicate = (key: any, value: any) => boolean;

/** Branch `index` keeps the records that match predicate `index` and none before it. */
const branchProcessor = (predicates: Predicate[], index: number) =>
  recordProcessor((record, context) => {
    const first = predicates.findIndex((predicate) => predicate(record.key, record.value));
    if (first === index) context.forward(record);
  });

/** One stream per predicate; a record goes to the first predicate it matches, or nowhere. */
export function branch(builder: InternalTopologyBuilder, parent: StreamHandle, predicates: Predicate[]): StreamHandle[] {
  return predicates.map((_, index) => nextStream(builder, parent, "branch", branchProcessor(predicates, index), undefined, {}));
}

/**
 * The node `split()` adds, which its branches hang from. Its predicates and children are filled in as branches are
 * added (the processor reads them when its task starts, once the topology is built): child i takes the records of
 * predicate i, the child after the last predicate (the default branch, if any) the records none matched.
 */
export interface Splitter {
  readonly parent: StreamHandle;
  readonly node: string;
  readonly predicates: Predicate[];
  readonly children: string[];
}

/** `name` is the branches' prefix; unnamed, the node's generated name and a dash. */
export function split(builder: InternalTopologyBuilder, parent: StreamHandle, name?: string): Splitter {
  const node = name ?? `${builder.nodeName("split")}-`;
  const splitter: Splitter = { parent, node, predicates: [], children: [] };
  const { predicates, children } = splitter;
  const processor = recordProcessor((record, context) => {
    for (let index = 0; index < predicates.length; index++) {
      if (predicates[index](record.key, record.value)) return context.forward(record, children[index]);
    }
    if (children.length > predicates.length) context.forward(record, children[predicates.length]);
  });
  builder.addProcessor("split", processor, [parent.node], [], node);
  return splitter;
}

/**
 * Adds a branch: for a predicate, or the default branch when there is none. It is named after the splitter and
 * `name`, or its number (predicates count from 1, the default branch is 0), as Kafka Streams names it.
 */
export function addBranch(builder: InternalTopologyBuilder, splitter: Splitter, predicate: Predicate | undefined, name?: string): StreamHandle {
  if (splitter.children.length > splitter.predicates.length) throw new Error(`split '${splitter.node}' has its default branch already: no branch can follow it`);
  if (predicate !== undefined) splitter.predicates.push(predicate);
  const childName = `${splitter.node}${name ?? (predicate === undefined ? 0 : splitter.predicates.length)}`;
  splitter.children.push(childName);
  return nextStream(builder, { ...splitter.parent, node: splitter.node }, "branch", passThroughProcessor(), childName, {});
}

/** The merged stream is re-keyed when either input is. */
export function merge(builder: InternalTopologyBuilder, parent: StreamHandle, other: StreamHandle, name?: string): StreamHandle {
  const node = builder.addProcessor("merge", passThroughProcessor(), [parent.node, other.node], [], name);
  return { node, keySerde: parent.keySerde, valueSerde: parent.valueSerde, keyChanged: parent.keyChanged || other.keyChanged };
}
