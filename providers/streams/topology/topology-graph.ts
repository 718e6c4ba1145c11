/** Describes a topology as the DAG of docs/api.md#topology-graph. */
import type { TopologyGraph, TopologyNode } from "../../../kernel/contracts/streams/runtime";
import type { SubTopology } from "./sub-topologies";
import type { TopologyDefinition } from "./topology-model";
import { predecessorsOf, successorsOf } from "./topology-model";

export function describeTopology(definition: TopologyDefinition, subTopologies: SubTopology[], version: string): TopologyGraph {
  return {
    version,
    subTopologies: subTopologies.map((sub) => ({
      id: sub.id,
      nodes: sub.nodes
        .map((name) => definition.nodes.get(name)!)
        .map((node): TopologyNode => {
          const base = { name: node.name, predecessors: predecessorsOf(node), successors: successorsOf(node) };
          if (node.kind === "source") return { type: "SOURCE", ...base, topics: node.topics };
          if (node.kind === "sink") return { type: "SINK", ...base, ...(typeof node.topic === "string" ? { topic: node.topic } : {}) };
          return { type: "PROCESSOR", ...base, stores: node.stores };
        })
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    })),
    globalStores: [...definition.globalStores.keys()],
  };
}
