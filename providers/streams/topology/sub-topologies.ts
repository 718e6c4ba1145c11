/**
 * Splits a topology into sub-topologies, as Kafka Streams does: nodes joined by an edge or by a shared
 * store run in the same task; repartition topics are the only links between sub-topologies.
 */
import type { TopologyDefinition, TopologyNodeDef } from "./topology-model";
import { successorsOf } from "./topology-model";

export interface SubTopology {
  id: number;
  /** Node names in creation order. */
  nodes: string[];
  sourceTopics: string[];
  /** The topics its sinks name; those a TopicNameExtractor picks are known only as records come. */
  sinkTopics: string[];
  stores: string[];
}

class DisjointSets {
  private readonly parent = new Map<string, string>();
  find(item: string): string {
    let root = this.parent.get(item) ?? item;
    while (root !== (this.parent.get(root) ?? root)) root = this.parent.get(root) ?? root;
    this.parent.set(item, root);
    return root;
  }
  union(a: string, b: string): void {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA !== rootB) this.parent.set(rootB, rootA);
  }
}

export function splitSubTopologies(definition: TopologyDefinition): SubTopology[] {
  const sets = new DisjointSets();
  const storeOwner = new Map<string, string>();
  for (const node of definition.nodes.values()) {
    sets.find(node.name);
    for (const successor of successorsOf(node)) sets.union(node.name, successor);
    if (node.kind === "processor") {
      for (const store of node.stores) {
        const owner = storeOwner.get(store);
        if (owner) sets.union(owner, node.name);
        else storeOwner.set(store, node.name);
      }
    }
  }
  const byRoot = new Map<string, TopologyNodeDef[]>();
  for (const node of definition.nodes.values()) {
    const root = sets.find(node.name);
    const members = byRoot.get(root) ?? [];
    members.push(node);
    byRoot.set(root, members);
  }
  return [...byRoot.values()].map((members, id) => ({
    id,
    nodes: members.map((node) => node.name),
    sourceTopics: unique(members.flatMap((node) => (node.kind === "source" ? node.topics : []))),
    sinkTopics: unique(members.flatMap((node) => (node.kind === "sink" && typeof node.topic === "string" ? [node.topic] : []))),
    stores: unique(members.flatMap((node) => (node.kind === "processor" ? node.stores : []))),
  }));
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
