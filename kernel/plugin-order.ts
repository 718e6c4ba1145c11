/**
 * The lifecycle order of plugins: each after the providers of the components it requires (optional ones too,
 * when some plugin provides them), descriptor order among plugins that do not depend on each other. A required
 * component nobody provides, and plugins that require each other in a cycle, stop startup naming them.
 */
import type { OptionalDependency, Plugin } from "./contracts/plugin";
import type { Token } from "./contracts/token";
import { StartupError } from "./errors";

export interface NamedPlugin {
  name: string;
  instance: Plugin;
}

/** `available`: components registered before any plugin is configured (the kernel's own). */
export function lifecycleOrder<P extends NamedPlugin>(plugins: readonly P[], available: (component: Token<unknown>) => boolean): P[] {
  const edges = plugins.map((plugin, index) => dependenciesOf(plugin, index, plugins, available));
  const placed = new Set<number>();
  const order: P[] = [];
  while (order.length < plugins.length) {
    const next = plugins.findIndex((_plugin, index) => !placed.has(index) && [...edges[index].keys()].every((dependency) => placed.has(dependency)));
    if (next === -1) throw new StartupError(`Plugins require each other in a cycle: ${describeCycle(plugins, edges, placed)}`);
    placed.add(next);
    order.push(plugins[next]);
  }
  return order;
}

/** Index of each plugin `plugins[index]` must follow → the component it requires of it. */
function dependenciesOf(plugin: NamedPlugin, index: number, plugins: readonly NamedPlugin[], available: (component: Token<unknown>) => boolean): Map<number, string> {
  const edges = new Map<number, string>();
  for (const requirement of plugin.instance.requires ?? []) {
    const { component, optional } = requirementOf(requirement, plugin.name);
    const providers = plugins.flatMap((other, at) => (at !== index && (other.instance.provides ?? []).includes(component) ? [at] : []));
    if (providers.length === 0 && !optional && !available(component)) {
      throw new StartupError(`Plugin ${plugin.name} requires '${component}', which no plugin provides: add the descriptor line of a plugin that provides it`);
    }
    for (const provider of providers) edges.set(provider, component);
  }
  return edges;
}

function requirementOf(requirement: Token<unknown> | OptionalDependency, pluginName: string): { component: Token<unknown>; optional: boolean } {
  if (typeof requirement === "string") return { component: requirement, optional: false };
  if (typeof requirement?.optional === "string") return { component: requirement.optional, optional: true };
  throw new StartupError(`Plugin ${pluginName} lists ${JSON.stringify(requirement)} in requires: expected a token or optional(token)`);
}

/** Follows unplaced dependencies from the first unplaced plugin until one repeats: that loop is a cycle. */
function describeCycle(plugins: readonly NamedPlugin[], edges: readonly Map<number, string>[], placed: ReadonlySet<number>): string {
  const path: number[] = [];
  let at = plugins.findIndex((_plugin, index) => !placed.has(index));
  while (!path.includes(at)) {
    path.push(at);
    at = [...edges[at].keys()].find((dependency) => !placed.has(dependency))!;
  }
  const cycle = [...path.slice(path.indexOf(at)), at];
  return cycle
    .slice(0, -1)
    .map((index, step) => `${plugins[index].name} requires '${edges[index].get(cycle[step + 1])}' of ${plugins[cycle[step + 1]].name}`)
    .join(", ");
}
