/**
 * Where an application's stream threads may run. A worker thread builds the application's topology again (functions
 * do not cross threads): it loads the topology provider and the registered named code from their modules, with the
 * same configuration values. A provider given in-process (Sluice.register, StreamsRuntime#addProvider of an object)
 * or made with injected components has no module to load: its threads run on the main event loop.
 */
import type { ServiceModule } from "../../../../../kernel/contracts/plugin";

export interface ThreadSource {
  provider: ServiceModule;
  /** Every `sluice.streams.NamedCode` registration, in discovery order. */
  code: readonly ServiceModule[];
}

/** A source to run threads in workers from, or why they stay on the main event loop. */
export type ThreadPlacement = { source: ThreadSource } | { mainLoop: string };

/** The placement of a provider's threads, from how it and the named code were found. */
export function threadPlacement(provider: ServiceModule | undefined, code: readonly { name: string; module?: ServiceModule }[]): ThreadPlacement {
  if (!provider) return { mainLoop: "its topology provider was given in-process (Sluice.register) or needs injected components, so a worker thread cannot load it" };
  const unloadable = code.find((registration) => registration.module === undefined);
  if (unloadable) return { mainLoop: `the named code ${unloadable.name} was given in-process, so a worker thread cannot load it` };
  return { source: { provider, code: code.map((registration) => registration.module!) } };
}
