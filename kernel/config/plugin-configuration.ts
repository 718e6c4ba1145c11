/**
 * Configuration sections are declared by the plugins that own them (and by the kernel: server, log, plugins),
 * so the configuration is validated once the plugins are found — `plugins.packages` among them, which the kernel's
 * own sections give first.
 */
import { PLUGIN_CONTRACT, type Plugin } from "../contracts/plugin";
import { StartupError } from "../errors";
import { ServiceLoader, type NamedService } from "../service-loader";
import { ConfigDeclarations } from "./config-validation";
import { KERNEL_SECTIONS, PLUGINS_CONFIG } from "./kernel-config";
import { readConfigSources, validateConfig, type ConfigSources, type RawEntry } from "./load-config";
import type { SluiceConfig } from "./sluice-config";

/** The kernel's sections and those of `plugins`; two owners of one section stop startup naming both. */
export function declarationsOf(plugins: readonly NamedService<Plugin>[]): ConfigDeclarations {
  return new ConfigDeclarations([
    ...KERNEL_SECTIONS.map((section) => ({ owner: "the kernel", section })),
    ...plugins.flatMap(({ name, instance }) =>
      (instance.configSections ?? []).map((section) => {
        if (typeof section?.name !== "string" || typeof section.keys !== "object") throw new StartupError(`Plugin ${name} declares a configuration section that is not one (use configSection)`);
        return { owner: `plugin ${name}`, section };
      }),
    ),
  ]);
}

/** The package folders `plugins.packages` adds, from the entries of the kernel's sections (the rest waits for the plugins). */
export function extraPackagesOf(entries: readonly RawEntry[]): readonly string[] {
  return validateConfig(entries, declarationsOf([]), true).of(PLUGINS_CONFIG).get("packages");
}

/** Sluice's configuration outside the kernel (a command), validated against the plugins its descriptors name. */
export async function loadPluginConfiguration(sources: ConfigSources, sluiceRoot: string): Promise<SluiceConfig> {
  const entries = await readConfigSources(sources);
  return validateConfig(entries, await discoveredDeclarations(new ServiceLoader({ root: sources.root, sluiceRoot, extraPackages: extraPackagesOf(entries) })));
}

/** The sections of the plugins the loader finds. */
export async function discoveredDeclarations(loader: ServiceLoader): Promise<ConfigDeclarations> {
  return declarationsOf(await loader.instances(PLUGIN_CONTRACT));
}
