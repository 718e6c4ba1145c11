/**
 * The topology as a graph to draw: its nodes (sources, processors, sinks) grouped by sub-topology, the topics
 * they read and write and the stores their processors use, laid out top to bottom by dagre.
 */
import { graphlib, layout } from "@dagrejs/dagre";
import type { Topology } from "../../api/sluice-types";

export type NodeKind = "SOURCE" | "PROCESSOR" | "SINK" | "topic" | "store";

export interface DrawnNode {
  id: string;
  kind: NodeKind;
  label: string;
  /** Set on the topology's own nodes (not on topics and stores). */
  subTopology: number | undefined;
  x: number;
  y: number;
  width: number;
  height: number;
  /** What the details panel lists: predecessors, successors, topics, stores. */
  facts: [string, string][];
}

export interface DrawnEdge {
  id: string;
  kind: "flow" | "store";
  points: { x: number; y: number }[];
}

export interface DrawnCluster {
  id: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface TopologyDrawing {
  nodes: DrawnNode[];
  edges: DrawnEdge[];
  clusters: DrawnCluster[];
  width: number;
  height: number;
}

const NODE_HEIGHT = 34;
const CHARACTER_WIDTH = 7.2;
const NODE_PADDING = 28;

const nodeId = (name: string) => `node:${name}`;
const topicId = (name: string) => `topic:${name}`;
const storeId = (name: string) => `store:${name}`;
const clusterId = (id: number) => `sub:${id}`;
const list = (names: readonly string[] | undefined) => (names && names.length > 0 ? names.join(", ") : "none");

export function layoutTopology(topology: Topology): TopologyDrawing {
  const graph = new graphlib.Graph({ compound: true, multigraph: true });
  graph.setGraph({ rankdir: "TB", nodesep: 24, ranksep: 36, marginx: 16, marginy: 16 });
  graph.setDefaultEdgeLabel(() => ({}));
  const described = new Map<string, Omit<DrawnNode, "x" | "y" | "width" | "height">>();
  const edges: { from: string; to: string; kind: DrawnEdge["kind"] }[] = [];
  const addNode = (id: string, node: Omit<DrawnNode, "id" | "x" | "y" | "width" | "height">, parent?: string) => {
    if (described.has(id)) return;
    described.set(id, { id, ...node });
    graph.setNode(id, { width: node.label.length * CHARACTER_WIDTH + NODE_PADDING, height: NODE_HEIGHT });
    if (parent) graph.setParent(id, parent);
  };

  for (const sub of topology.sub_topologies) {
    graph.setNode(clusterId(sub.id), { width: 0, height: 0 });
    for (const node of sub.nodes) {
      addNode(
        nodeId(node.name),
        {
          kind: node.type,
          label: node.name,
          subTopology: sub.id,
          facts: [
            ["type", node.type.toLowerCase()],
            ["sub-topology", String(sub.id)],
            ["predecessors", list(node.predecessors)],
            ["successors", list(node.successors)],
            ...(node.topics ? [["reads", list(node.topics)] as [string, string]] : []),
            ...(node.topic ? [["writes", node.topic] as [string, string]] : []),
            ...(node.stores && node.stores.length > 0 ? [["stores", list(node.stores)] as [string, string]] : []),
          ],
        },
        clusterId(sub.id),
      );
      for (const successor of node.successors) edges.push({ from: nodeId(node.name), to: nodeId(successor), kind: "flow" });
      for (const topic of node.topics ?? []) edges.push({ from: topicId(topic), to: nodeId(node.name), kind: "flow" });
      if (node.topic) edges.push({ from: nodeId(node.name), to: topicId(node.topic), kind: "flow" });
      for (const store of node.stores ?? []) {
        addNode(storeId(store), { kind: "store", label: store, subTopology: undefined, facts: [["type", "state store"]] }, clusterId(sub.id));
        edges.push({ from: nodeId(node.name), to: storeId(store), kind: "store" });
      }
    }
  }
  for (const store of topology.global_stores) addNode(storeId(store), { kind: "store", label: store, subTopology: undefined, facts: [["type", "global state store"]] });
  for (const edge of edges) {
    for (const end of [edge.from, edge.to]) {
      if (end.startsWith("topic:")) addNode(end, { kind: "topic", label: end.slice("topic:".length), subTopology: undefined, facts: [["type", "topic"]] });
    }
    graph.setEdge(edge.from, edge.to, {}, `${edge.from}->${edge.to}`);
  }

  layout(graph);
  const size = graph.graph();
  return {
    nodes: [...described.values()].map((node) => {
      const { x, y, width, height } = graph.node(node.id) as { x: number; y: number; width: number; height: number };
      return { ...node, x, y, width, height };
    }),
    edges: edges.map((edge) => ({
      id: `${edge.from}->${edge.to}`,
      kind: edge.kind,
      points: (graph.edge({ v: edge.from, w: edge.to, name: `${edge.from}->${edge.to}` }) as { points: { x: number; y: number }[] }).points,
    })),
    clusters: topology.sub_topologies.map((sub) => {
      const { x, y, width, height } = graph.node(clusterId(sub.id)) as { x: number; y: number; width: number; height: number };
      return { id: sub.id, x: x - width / 2, y: y - height / 2, width, height };
    }),
    width: size.width ?? 0,
    height: size.height ?? 0,
  };
}
