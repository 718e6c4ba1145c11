/**
 * The topology catalogue: GET /api/v1/topologies, /api/v1/topologies/{name} and
 * /api/v1/topologies/{name}/versions/{version} (`latest` accepted) — every topology provider Sluice knows, deployable
 * with POST /api/v1/streams. Read from the runtime's StreamsDeployments per request; none without a runtime.
 */
import { notFound, optional, type Plugin, type PluginContext, STREAMS_DEPLOYMENTS_TOKEN, type TopologyVersion } from "sluice";
import { topologyJson, topologyVersionJson } from "./catalogue-json";
import { TOPOLOGIES_SPECS as SPECS } from "./topologies-route-specs";

const BASE = "/api/v1/topologies";
const LATEST = "latest";

export class TopologiesApiPlugin implements Plugin {
  readonly requires = [optional(STREAMS_DEPLOYMENTS_TOKEN)];

  configure({ components, routes }: PluginContext): void {
    const versionsByName = (): Map<string, TopologyVersion[]> => {
      const byName = new Map<string, TopologyVersion[]>();
      for (const version of components.resolveOptional(STREAMS_DEPLOYMENTS_TOKEN)?.topologies() ?? []) {
        byName.set(version.name, [...(byName.get(version.name) ?? []), version]);
      }
      return byName;
    };
    const versionsOf = (name: string): TopologyVersion[] => {
      const versions = versionsByName().get(name);
      if (!versions) throw notFound(`Unknown topology '${name}'`);
      return versions;
    };
    routes.get(BASE, () => [...versionsByName().values()].map(topologyJson), { spec: SPECS.all });
    routes.get(`${BASE}/:name`, (req) => topologyJson(versionsOf(req.params.name)), { spec: SPECS.one });
    routes.get(
      `${BASE}/:name/versions/:version`,
      (req) => {
        const versions = versionsOf(req.params.name);
        const wanted = req.params.version;
        const found = wanted === LATEST ? versions[versions.length - 1] : versions.find((candidate) => candidate.version === wanted);
        if (!found) throw notFound(`Topology '${req.params.name}' has no version '${wanted}' (versions: ${versions.map((version) => version.version).join(", ")}, or ${LATEST})`);
        return topologyVersionJson(found);
      },
      { spec: SPECS.version },
    );
  }
}
