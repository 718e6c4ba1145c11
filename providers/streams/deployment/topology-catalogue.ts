/** The topology providers Sluice knows (descriptors, installed packages, `Sluice.register`), by name and version. */
import type { TopologyVersion } from "../../../kernel/contracts/streams/deployments";
import type { TopologyProvider } from "../../../kernel/contracts/streams/topology-provider";
import { badRequest } from "../../../kernel/http/http-error";
import { configView } from "../application/config-view";

export const LATEST = "latest";

/** Dotted versions compared part by part, numerically where both parts are numbers (`1.10.0` after `1.9.2`). */
export function compareVersions(a: string, b: string): number {
  const left = a.split(".");
  const right = b.split(".");
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const [x, y] = [left[i] ?? "", right[i] ?? ""];
    const numeric = /^\d+$/.test(x) && /^\d+$/.test(y);
    const order = numeric ? Number(x) - Number(y) : x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return order;
  }
  return 0;
}

export class TopologyCatalogue {
  /** By name, versions oldest first. */
  private readonly byName = new Map<string, TopologyProvider[]>();

  /** `autostart` says whether a provider's instance starts at boot (its own flag and `applications.<id>.autostart`). */
  constructor(private readonly providers: readonly TopologyProvider[], private readonly autostart: (provider: TopologyProvider) => boolean) {
    for (const provider of providers) {
      const versions = this.byName.get(provider.name) ?? [];
      // Two providers of one name and version (two boot-time ids of one class) are one entry: the first.
      if (versions.some((known) => known.version === provider.version)) continue;
      versions.push(provider);
      versions.sort((a, b) => compareVersions(a.version, b.version));
      this.byName.set(provider.name, versions);
    }
  }

  /** The providers whose instance starts at boot. */
  bootProviders(): TopologyProvider[] {
    return this.providers.filter(this.autostart);
  }

  describe(): TopologyVersion[] {
    return [...this.byName.keys()].sort().flatMap((name) => this.byName.get(name)!.map((provider) => versionOf(provider, this.autostart(provider))));
  }

  /** The provider of `name` at `version` (`latest` or none: the newest); a 400 naming the field otherwise. */
  find(name: string, version: string = LATEST): TopologyProvider {
    const versions = this.byName.get(name);
    if (!versions) throw badRequest(`Field 'topology': no topology named '${name}' (known: ${[...this.byName.keys()].sort().join(", ") || "none"})`);
    const provider = version === LATEST ? versions[versions.length - 1] : versions.find((candidate) => candidate.version === version);
    if (!provider) throw badRequest(`Field 'version': topology '${name}' has no version '${version}' (versions: ${versions.map((known) => known.version).join(", ")}, or ${LATEST})`);
    return provider;
  }
}

function versionOf(provider: TopologyProvider, autostart: boolean): TopologyVersion {
  return {
    name: provider.name,
    version: provider.version,
    description: provider.description ?? null,
    config: configView(provider.config),
    eventStreams: provider.eventStreams ?? [],
    autostart,
  };
}
