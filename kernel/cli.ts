/** The `sluice` command line: `start`, `--help`, `--version`, and commands contributed through descriptors. */
import { StartupError } from "./errors";
import { Sluice } from "./embedding/sluice";
import { SLUICE_ROOT, SLUICE_VERSION } from "./kernel";
import { CLI_COMMAND_CONTRACT, type CliCommand } from "./contracts/cli-command";
import { ServiceLoader } from "./service-loader";

const USAGE = `Usage: sluice <command> [options]

Commands:
  start [--config FILE] [--key=value ...]   run Sluice: the HTTP server, the plugins and the applications
  <contributed commands, listed below>

Options:
  --config FILE      configuration file (default: sluice.config.*, .sluicerc*, package.json#sluice)
  --<key>=<value>    override any configuration key, e.g. --server.port=8081 (see config/README.md)
  -h, --help         show this help
  -v, --version      print the version
`;

export interface ParsedArgs {
  command: string | undefined;
  configFile?: string;
  overrides: Record<string, string>;
  help: boolean;
  version: boolean;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const parsed: ParsedArgs = { command: undefined, overrides: {}, help: false, version: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "-h" || arg === "--help") parsed.help = true;
    else if (arg === "-v" || arg === "--version") parsed.version = true;
    else if (arg === "--config") parsed.configFile = requireValue(argv[++i], "--config");
    else if (arg.startsWith("--config=")) parsed.configFile = arg.slice("--config=".length);
    else if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const key = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      if (key === "") throw new StartupError(`Invalid option '${arg}'`);
      parsed.overrides[key] = eq === -1 ? "true" : arg.slice(eq + 1);
    } else if (parsed.command === undefined) parsed.command = arg;
    else throw new StartupError(`Unexpected argument '${arg}'`);
  }
  return parsed;
}

function requireValue(value: string | undefined, option: string): string {
  if (value === undefined || value.startsWith("--")) throw new StartupError(`${option} needs a value`);
  return value;
}

export async function main(argv: string[]): Promise<void> {
  try {
    const commands = await contributedCommands();
    const parsing = commands.find((c) => c.ownArguments && c.name === argv[0]);
    if (parsing) return void (await parsing.run({ root: process.cwd(), overrides: {}, argv: argv.slice(1) }));
    const args = parseArgs(argv);
    if (args.version) return void process.stdout.write(`${SLUICE_VERSION}\n`);
    if (args.help || args.command === undefined) {
      const listed = commands.map((c) => `  ${`${c.name} ${c.usage}`.padEnd(40)}  ${c.summary}`).join("\n");
      process.stdout.write(USAGE.replace("  <contributed commands, listed below>", listed || "  (none)"));
      if (!args.help) process.exitCode = 1;
      return;
    }
    if (args.command === "start") return await runUntilSignal(Sluice.forCommandLine({ configFile: args.configFile, overrides: args.overrides }));
    const command = commands.find((c) => c.name === args.command);
    if (!command) throw new StartupError(`Unknown command '${args.command}'; see sluice --help`);
    const running = await command.run({ root: process.cwd(), configFile: args.configFile, overrides: args.overrides });
    await runUntilSignal({ start: async () => undefined, close: () => running.close() });
  } catch (error) {
    reportFatal(error);
  }
}

async function contributedCommands(): Promise<CliCommand[]> {
  const loader = new ServiceLoader({ root: process.cwd(), sluiceRoot: SLUICE_ROOT });
  const loaded = await loader.load<CliCommand>(CLI_COMMAND_CONTRACT);
  return loaded.map(({ exported }) => (typeof exported === "function" ? new exported() : exported));
}

/** Starts, then closes cleanly on SIGINT/SIGTERM and exits 0; a second signal exits at once with 1. SIGHUP reloads. */
async function runUntilSignal(service: { start(): Promise<void>; close(): Promise<void>; reload?(): void }): Promise<void> {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      process.stderr.write(`sluice: ${signal} again, exiting without a clean shutdown\n`);
      process.exit(1);
    }
    stopping = true;
    service.close().then(
      () => process.exit(0),
      (error) => reportFatal(error),
    );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  if (service.reload) process.on("SIGHUP", () => service.reload!());
  await service.start();
}

function reportFatal(error: unknown): void {
  const message = error instanceof StartupError ? error.message : (error as Error)?.stack ?? String(error);
  process.stderr.write(`sluice: ${message}\n`);
  process.exit(1);
}
