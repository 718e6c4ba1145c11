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
  /** Stores that put processors into this sub-topology that their edges alone would not (for errors that name them). */
  storeLinks: StoreLink[];
}

/** A store used by two processors that only the store brings into one task. */
export interface StoreLink {
  store: string;
  processors: [string, string];
}

class DisjointSets {
  private readonly parent = new Map<string, string>();
  find(item: string): string {
    let root = this.parent.get(item) ?? item;
    while (root !== (this.parent.get(root) ?? root)) root = this.parent.get(root) ?? root;
    this.parent.set(item, root);
    return root;
  }
  /** Returns whether `a` and `b` were apart. */
  union(a: string, b: string): boolean {
    const rootA = this.find(a);
    const rootB = this.find(b);
    if (rootA !== rootB) this.parent.set(rootB, rootA);
    return rootA !== rootB;
  }
}

export function splitSubTopologies(definition: TopologyDefinition): SubTopology[] {
  const sets = new DisjointSets();
  for (const node of definition.nodes.values()) {
    sets.find(node.name);
    for (const successor of successorsOf(node)) sets.union(node.name, successor);
  }
  // Edges first, then stores: a store that joins two groups of nodes is a link worth naming.
  const storeOwner = new Map<string, string>();
  const links: StoreLink[] = [];
  for (const node of definition.nodes.values()) {
    if (node.kind !== "processor") continue;
    for (const store of node.stores) {
      const owner = storeOwner.get(store);
      if (owner === undefined) storeOwner.set(store, node.name);
      else if (sets.union(owner, node.name)) links.push({ store, processors: [owner, node.name] });
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
    storeLinks: links.filter((link) => members.some((node) => node.name === link.processors[0])),
  }));
}

/**
 * Checks what the topology itself says about partitions: the repartition topics one sub-topology reads, fixed in size
 * by KStream.repartition, must agree, since its tasks read them partition by partition — as Kafka Streams' co-partition
 * check has it. The error names the stores that put them in one task, when stores did.
 */
export function validatePartitionCounts(definition: TopologyDefinition, subTopologies: SubTopology[]): void {
  for (const sub of subTopologies) {
    const fixed = sub.sourceTopics.filter((topic) => definition.repartitionPartitions.has(topic));
    const counts = new Set(fixed.map((topic) => definition.repartitionPartitions.get(topic)));
    if (counts.size <= 1) continue;
    const listed = fixed.map((topic) => `${topic} (${definition.repartitionPartitions.get(topic)})`).join(", ");
    throw new Error(`topics ${listed} are read by one task but are repartitioned to different numbers of partitions${describeLinks(sub)}`);
  }
}

/** Why the nodes of a sub-topology share tasks beyond their edges, for an error message; "" when only edges do. */
export function describeLinks(sub: SubTopology): string {
  if (sub.storeLinks.length === 0) return "";
  const links = sub.storeLinks.map(({ store, processors: [a, b] }) => `store '${store}' is used by processors '${a}' and '${b}'`);
  return ` (${links.join("; ")}, so they run in one task)`;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
