/**
 * The topology drawn as a graph: sub-topologies as boxes around their sources, processors and sinks, with the
 * topics they read and write and the stores they use. Pan and zoom with the pointer or the keyboard; a node
 * chosen (click, Enter) shows its details.
 */
import { useMemo, useState } from "preact/hooks";
import type { Topology } from "../../api/sluice-types";
import { ErrorNotice, Loading } from "../../components/error-notice";
import { counted } from "../../components/formatting";
import { usePoll } from "../../live/use-poll";
import { applicationsPath, useSession } from "../../session";
import type { TabProps } from "./tab-props";
import { usePanZoom } from "./pan-zoom";
import { layoutTopology, type DrawnNode, type TopologyDrawing } from "./topology-layout";

const TOPOLOGY_REFRESH_MS = 30_000;
const KIND_NAMES: Record<DrawnNode["kind"], string> = { SOURCE: "source", PROCESSOR: "processor", SINK: "sink", topic: "topic", store: "store" };

export function TopologyTab({ id }: TabProps) {
  const { api } = useSession();
  const topology = usePoll(() => api.get<Topology>(applicationsPath(id, "/topology")), [id], TOPOLOGY_REFRESH_MS);
  const text = topology.data && JSON.stringify(topology.data);
  const drawing = useMemo(() => topology.data && layoutTopology(topology.data), [text]);
  if (!drawing || !topology.data) return topology.error ? <ErrorNotice error={topology.error} /> : <Loading what="the topology" />;
  return <TopologyGraph topology={topology.data} drawing={drawing} />;
}

function TopologyGraph({ topology, drawing }: { topology: Topology; drawing: TopologyDrawing }) {
  const { view, svg, zoom, fit, handlers } = usePanZoom(drawing.width, drawing.height);
  const [chosen, setChosen] = useState<string | undefined>();
  const own = drawing.nodes.filter((node) => node.subTopology !== undefined);
  const topics = drawing.nodes.filter((node) => node.kind === "topic").length;
  const stores = drawing.nodes.filter((node) => node.kind === "store").length;
  const selected = drawing.nodes.find((node) => node.id === chosen);
  const choose = (node: DrawnNode) => setChosen(node.id === chosen ? undefined : node.id);
  return (
    <>
      <p role="status" data-node-count={own.length}>
        Version {topology.version}: {counted(own.length, "node")} in {counted(topology.sub_topologies.length, "sub-topology", "sub-topologies")}, {counted(topics, "topic")},{" "}
        {counted(stores, "store")}.
      </p>
      <div class="toolbar">
        <button type="button" onClick={() => zoom(1.25)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => zoom(0.8)} aria-label="Zoom out">
          −
        </button>
        <button type="button" onClick={fit}>
          Fit
        </button>
        <span class="muted">Drag to pan, wheel to zoom; on the focused graph: arrows, + and −, 0 to fit.</span>
      </div>
      <div class="topology">
        <svg
          ref={svg}
          class="topology-graph"
          tabindex={0}
          role="group"
          aria-label={`Topology graph of ${own.length} nodes; arrows pan, plus and minus zoom, 0 fits`}
          {...handlers}
        >
          <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="8" markerHeight="8" orient="auto-start-reverse">
              <path d="M0,0L10,5L0,10z" class="arrow-head" />
            </marker>
          </defs>
          <g transform={`translate(${view.x},${view.y}) scale(${view.scale})`}>
            {drawing.clusters.map((cluster) => (
              <g key={cluster.id} class="cluster">
                <rect x={cluster.x} y={cluster.y - 14} width={cluster.width} height={cluster.height + 14} rx={8} />
                <text x={cluster.x + 8} y={cluster.y - 2}>
                  sub-topology {cluster.id}
                </text>
              </g>
            ))}
            {drawing.edges.map((edge) => (
              <path
                key={edge.id}
                class={`edge edge-${edge.kind}`}
                d={edge.points.map((point, index) => `${index === 0 ? "M" : "L"}${point.x.toFixed(1)},${point.y.toFixed(1)}`).join("")}
                marker-end={edge.kind === "flow" ? "url(#arrow)" : undefined}
              />
            ))}
            {drawing.nodes.map((node) => (
              <g
                key={node.id}
                class={`node node-${KIND_NAMES[node.kind]}${node.id === chosen ? " chosen" : ""}`}
                transform={`translate(${node.x - node.width / 2},${node.y - node.height / 2})`}
                role="button"
                tabindex={0}
                aria-pressed={node.id === chosen}
                aria-label={`${KIND_NAMES[node.kind]} ${node.label}`}
                {...(node.subTopology !== undefined ? { "data-topology-node": node.label } : { "data-extra-node": node.label })}
                onClick={() => choose(node)}
                onKeyDown={(event) => {
                  if (event.key !== "Enter" && event.key !== " ") return;
                  event.preventDefault();
                  choose(node);
                }}
              >
                <rect width={node.width} height={node.height} rx={node.kind === "topic" ? node.height / 2 : 4} />
                <text x={node.width / 2} y={node.height / 2 + 4} text-anchor="middle">
                  {node.label}
                </text>
              </g>
            ))}
          </g>
        </svg>
        <aside class="node-details" aria-live="polite" aria-label="Chosen node">
          {selected ? (
            <>
              <h3>
                {KIND_NAMES[selected.kind]} <code>{selected.label}</code>
              </h3>
              <dl>
                {selected.facts.map(([name, value]) => [<dt key={`k-${name}`}>{name}</dt>, <dd key={`v-${name}`}>{value}</dd>])}
              </dl>
            </>
          ) : (
            <p class="muted">Choose a node to see its details.</p>
          )}
          <ul class="legend">
            {Object.values(KIND_NAMES).map((kind) => (
              <li key={kind}>
                <span class={`swatch node-swatch node-${kind}`} aria-hidden="true" />
                {kind}
              </li>
            ))}
          </ul>
        </aside>
      </div>
    </>
  );
}
