import type { ConfigSources } from "../config/load-config";
import { token } from "./token";

/** Descriptor: META-INF/services/sluice.cli.Command — a `sluice <name>` command contributed by a package. */
export const CLI_COMMAND_CONTRACT = token<CliCommand>("sluice.cli.Command");

export interface CliCommand {
  readonly name: string;
  /** Arguments and options, for `sluice --help`. */
  readonly usage: string;
  /** One line for `sluice --help`. */
  readonly summary: string;
  /** When true, the arguments after the command name reach `run` unparsed, as `argv` (the command parses its own options). */
  readonly ownArguments?: boolean;
  /** Runs until the returned handle is closed (on SIGINT/SIGTERM). */
  run(sources: Omit<ConfigSources, "env"> & { root: string; argv?: string[] }): Promise<{ close(): Promise<void> }>;
}
