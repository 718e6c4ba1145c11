/** The `sluice` command line: `start`, `--help`, `--version`, and commands contributed through descriptors. */
import type { ConfigDeclarations } from "./config/config-validation";
import { readConfigSources } from "./config/load-config";
import { declarationsOf, discoveredDeclarations, extraPackagesOf } from "./config/plugin-configuration";
import { StartupError } from "./errors";
import { Sluice } from "./embedding/sluice";
import { SLUICE_ROOT, SLUICE_VERSION } from "./kernel";
import { CLI_COMMAND_CONTRACT } from "./contracts/cli-command";
import { flushLogs, flushLogsSync } from "./log-destination";
import { ServiceLoader } from "./service-loader";

const USAGE = `Usage: sluice <command> [options]

Commands:
  start [--config FILE] [--key=value ...]   run Sluice: the HTTP server, the plugins and the applications
  <contributed commands, listed below>

Options:
  --config FILE      configuration file (default: sluice.config.*, .sluicerc*, package.json#sluice)
  --<key>=<value>    override any configuration key, e.g. --server.port=8081 or --server.port 8081
  -h, --help         show this help (sluice start --help lists the configuration keys)
  -v, --version      print the version
`;

/** `sluice start --help`: the usage, then every configuration key the plugins declare, with its default and what it does. */
function startUsage(declarations: ConfigDeclarations): string {
  const keys = declarations
    .sections()
    .filter((section) => !section.named)
    .flatMap((section) => Object.entries(section.keys).map(([key, spec]) => ({ key: `${section.name}.${key}`, spec })));
  const width = Math.max(...keys.map(({ key }) => key.length)) + 4;
  const lines = keys.map(({ key, spec }) => {
    const fallback = spec.default === undefined || spec.default === "" || (Array.isArray(spec.default) && spec.default.length === 0) ? "" : ` (default ${String(spec.default)})`;
    return `  --${key.padEnd(width)}${spec.doc}${fallback}`;
  });
  return `Usage: sluice start [--config FILE] [--key=value | --key value ...]

Runs Sluice: the HTTP server, the plugins and the applications. Configuration keys (also settable in the
configuration file and as SLUICE_<KEY> environment variables; applications.<application.id>.<streams key> sets
one application's streams key; see config/README.md):
${lines.join("\n")}
`;
}

export interface ParsedArgs {
  command: string | undefined;
  configFile?: string;
  overrides: Record<string, string>;
  help: boolean;
  version: boolean;
}

/** `declarations` tell which keys are booleans (a bare `--key` flag); by default, the kernel's own. */
export function parseArgs(argv: string[], declarations: ConfigDeclarations = declarationsOf([])): ParsedArgs {
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
      if (!key.includes(".")) throw new StartupError(`Unknown option '--${key}': configuration keys are <section>.<key>, e.g. --server.port (see sluice start --help)`);
      if (eq !== -1) parsed.overrides[key] = arg.slice(eq + 1);
      else if (takesValue(declarations, key, argv[i + 1])) parsed.overrides[key] = argv[++i];
      else parsed.overrides[key] = "true";
    } else if (arg.startsWith("-") && arg.length > 1) throw new StartupError(`Unknown option '${arg}'; see sluice --help`);
    else if (parsed.command === undefined) parsed.command = arg;
    else throw new StartupError(`Unexpected argument '${arg}'`);
  }
  return parsed;
}

/**
 * Whether `--key next` gives `next` as the value: not when it is another flag, and for a boolean key only when it is
 * `true` or `false` (`--server.headless start` is a flag followed by the command).
 */
function takesValue(declarations: ConfigDeclarations, key: string, next: string | undefined): boolean {
  if (next === undefined || next.startsWith("--")) return false;
  return !isBooleanKey(declarations, key) || next === "true" || next === "false";
}

function isBooleanKey(declarations: ConfigDeclarations, key: string): boolean {
  try {
    return declarations.find(key, "the command line")?.spec.type === "boolean";
  } catch {
    return false; // an unknown key: the configuration names it when it is loaded
  }
}

function requireValue(value: string | undefined, option: string): string {
  if (value === undefined || value.startsWith("--")) throw new StartupError(`${option} needs a value`);
  return value;
}

export async function main(argv: string[]): Promise<void> {
  try {
    const loader = new ServiceLoader({ root: process.cwd(), sluiceRoot: SLUICE_ROOT });
    const commands = (await loader.instances(CLI_COMMAND_CONTRACT)).map(({ instance }) => instance);
    const parsing = commands.find((c) => c.ownArguments && c.name === argv[0]);
    if (parsing) return void (await parsing.run({ root: process.cwd(), overrides: {}, argv: argv.slice(1) }));
    const args = parseArgs(argv, await discoveredDeclarations(loader));
    if (args.version) return void process.stdout.write(`${SLUICE_VERSION}\n`);
    if (args.help && args.command === "start") return void process.stdout.write(startUsage(await startDeclarations(args)));
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

/** The sections `sluice start` would validate against: its plugins, with the packages the configuration adds. */
async function startDeclarations(args: ParsedArgs): Promise<ConfigDeclarations> {
  const root = process.cwd();
  const entries = await readConfigSources({ root, configFile: args.configFile, overrides: args.overrides, env: process.env });
  return discoveredDeclarations(new ServiceLoader({ root, sluiceRoot: SLUICE_ROOT, extraPackages: extraPackagesOf(entries) }));
}

/**
 * Starts, then closes cleanly on SIGINT/SIGTERM and exits 0 once the log lines are written; a second signal exits at
 * once with 1, after writing out the log lines buffered so far. SIGHUP reloads.
 */
async function runUntilSignal(service: { start(): Promise<void>; close(): Promise<void>; reload?(): void }): Promise<void> {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      flushLogsSync();
      process.stderr.write(`sluice: ${signal} again, exiting without a clean shutdown\n`);
      process.exit(1);
    }
    stopping = true;
    service
      .close()
      .then(flushLogs)
      .then(
        () => process.exit(0),
        (error) => reportFatal(error),
      );
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  if (service.reload) process.on("SIGHUP", () => service.reload!());
  whenOrphanedUnderNpm(() => {
    process.stderr.write("sluice: the process npm started it through has exited, stopping\n");
    onSignal("SIGTERM");
  });
  await service.start();
}

const PARENT_WATCH_INTERVAL_MS = 500;

/**
 * A script run by npm, yarn or pnpm (`npm start` of a package that depends on Sluice, `npx sluice`) is started
 * through a shell: npm passes SIGTERM or SIGINT on to that shell, which dies of it without passing it on, and
 * Sluice would run on as an orphan. So when started by a package manager (it sets `npm_lifecycle_event`), Sluice
 * stops as on SIGTERM once the process that started it is gone: it has then been given another parent. Run any other
 * way (a supervisor, a container, `nohup`), it outlives its parent as any process does.
 */
function whenOrphanedUnderNpm(stop: () => void): void {
  if (process.env.npm_lifecycle_event === undefined) return;
  const parent = process.ppid;
  const watch = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(watch);
    stop();
  }, PARENT_WATCH_INTERVAL_MS);
  watch.unref();
}

function reportFatal(error: unknown): void {
  // The lines logged before the failure come first, and are not lost to the exit.
  flushLogsSync();
  const message = error instanceof StartupError ? error.message : (error as Error)?.stack ?? String(error);
  process.stderr.write(`sluice: ${message}\n`);
  process.exit(1);
}
