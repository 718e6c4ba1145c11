/** The JSON of the servers record (API.md §2.1) and of the topology graph (§2.2). */
import type { InstanceInfo, TopologyGraph, TopologyNode } from "../../kernel/contracts/streams/runtime";

export function serversRecord(id: string, instances: readonly InstanceInfo[]) {
  return {
    id,
    instances: instances.map((instance) => ({
      server: instance.server,
      is_local: instance.isLocal,
      stores: instance.stores,
      assignments: instance.assignments,
      standby_assignments: instance.standbyAssignments,
    })),
  };
}

const byName = (a: TopologyNode, b: TopologyNode) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function topologyJson(graph: TopologyGraph) {
  return {
    version: graph.version,
    sub_topologies: [...graph.subTopologies]
      .sort((a, b) => a.id - b.id)
      .map((sub) => ({ id: sub.id, nodes: [...sub.nodes].sort(byName).map(nodeJson) })),
    global_stores: graph.globalStores,
  };
}

function nodeJson(node: TopologyNode) {
  const json: Record<string, unknown> = { type: node.type, name: node.name, predecessors: node.predecessors, successors: node.successors };
  if (node.topics !== undefined) json.topics = node.topics;
  if (node.topic !== undefined) json.topic = node.topic;
  if (node.stores !== undefined) json.stores = node.stores;
  return json;
}
