/**
 * The topology graph as docs/api.md#topology-graph writes it; both /api/v1/streams/{id}/topology and
 * /api/v1/applications/{id}/topology answer this same body. Sub-topologies by id, nodes by name.
 */
import { arrayOf, objectSchema, type JsonSchema } from "../../http/json-schema";
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

const names = arrayOf({ type: "string" });

/** The body topologyJson answers, as /api/v1/openapi.json describes it. */
export const TOPOLOGY_SCHEMA: JsonSchema = objectSchema({
  version: { type: "string" },
  sub_topologies: arrayOf(
    objectSchema({
      id: { type: "integer" },
      nodes: arrayOf(
        objectSchema(
          {
            type: { enum: ["SOURCE", "PROCESSOR", "SINK"] },
            name: { type: "string" },
            predecessors: names,
            successors: names,
            topics: { ...names, description: "A source's topics" },
            topic: { type: "string", description: "A sink's topic" },
            stores: { ...names, description: "A processor's stores" },
          },
          { optional: ["topics", "topic", "stores"] },
        ),
      ),
    }),
  ),
  global_stores: names,
});
