/**
 * The topology graph as API.md §2.2 writes it; both /api/v1/streams/{id}/topology and
 * /api/v1/applications/{id}/topology answer this same body. Sub-topologies by id, nodes by name.
 */
import type { TopologyGraph, TopologyNode } from "./runtime";

const byName = (a: TopologyNode, b: TopologyNode) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

export function topologyJson(graph: TopologyGraph): Record<string, unknown> {
  return {
    version: graph.version,
    sub_topologies: [...graph.subTopologies]
      .sort((a, b) => a.id - b.id)
      .map((sub) => ({ id: sub.id, nodes: [...sub.nodes].sort(byName).map(nodeJson) })),
    global_stores: graph.globalStores,
  };
}

function nodeJson(node: TopologyNode): Record<string, unknown> {
  const json: Record<string, unknown> = { type: node.type, name: node.name, predecessors: node.predecessors, successors: node.successors };
  if (node.topics !== undefined) json.topics = node.topics;
  if (node.topic !== undefined) json.topic = node.topic;
  if (node.stores !== undefined) json.stores = node.stores;
  return json;
}
