/** The catalogue's JSON: snake_case, a topology summarised by its newest version, event streams by their types. */
import type { TopologyVersion } from "sluice";

export function topologyVersionJson(version: TopologyVersion): Record<string, unknown> {
  return {
    name: version.name,
    version: version.version,
    description: version.description,
    config: version.config,
    event_streams: version.eventStreams.map((stream) => stream.type).sort(),
    autostart: version.autostart,
  };
}

/** `versions` oldest first; the other fields are those of the newest (`latest`). */
export function topologyJson(versions: readonly TopologyVersion[]): Record<string, unknown> {
  const { version: latest, ...newest } = topologyVersionJson(versions[versions.length - 1]);
  return { ...newest, versions: versions.map((version) => version.version), latest };
}
