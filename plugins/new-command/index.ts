/**
 * `sluice new <name>`: writes a package of topologies to start from, as Kafka Streams' quickstart archetype does — a
 * sample topology with its TopologyTestDriver test, a REST extension answering from its store, the descriptors that
 * make Sluice find both, a strict tsconfig, `npm test` and `npm start` — then installs its dependencies.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { type CliCommand, SLUICE_ROOT, SLUICE_VERSION, StartupError } from "sluice";
import { applicationIdOf, writePackage } from "./scaffold";
import { sluiceDependency } from "./sluice-dependency";

const USAGE = "<name> [--sluice SPEC] [--no-install]";
const HELP = `Writes the package <name> in the folder of its name (without its @scope): a sample topology and its test,
a REST extension, the descriptors, a strict tsconfig.json, sluice.config.yaml, npm test and npm start; then runs
npm install there.

  --sluice SPEC    the package's dependency on Sluice (default: the Sluice that runs this command, as it was installed)
  --no-install     do not run npm install
`;

/** npm's rule for a package name, lower case: an application.id and a folder name too. */
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

export class NewCommand implements CliCommand {
  readonly name = "new";
  readonly usage = USAGE;
  readonly summary = "write a package of topologies: a sample topology, its test, a REST extension, npm scripts";
  readonly ownArguments = true;

  async run({ root, argv = [] }: { root: string; argv?: string[] }): Promise<{ close(): Promise<void> }> {
    if (argv.includes("--help") || argv.includes("-h")) {
      process.stdout.write(`Usage: sluice new ${USAGE}\n\n${HELP}`);
      return { close: async () => undefined };
    }
    const { name, sluice, install } = options(argv);
    const directory = path.resolve(root, applicationIdOf(name));
    if (fs.existsSync(directory) && fs.readdirSync(directory).length > 0) throw new StartupError(`new: ${directory} exists and is not empty`);
    const sluiceSpec = sluice ?? sluiceDependency(SLUICE_ROOT, SLUICE_VERSION);
    writePackage({ name, directory, sluiceSpec });
    process.stdout.write(`wrote ${directory} (sluice: ${sluiceSpec})\n`);
    if (install) {
      const npm = spawnSync("npm", ["install", "--no-audit", "--no-fund"], { cwd: directory, stdio: "inherit" });
      if (npm.status !== 0) throw new StartupError(`new: npm install failed in ${directory}; run it there again once the cause is fixed`);
    }
    const folder = path.relative(root, directory) || ".";
    process.stdout.write(`\nNext:\n  cd ${folder}\n  npm test     # the topology's tests\n  npm start    # Sluice with it on http://localhost:8080\n`);
    return { close: async () => undefined };
  }
}

function options(argv: string[]): { name: string; sluice: string | undefined; install: boolean } {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: { sluice: { type: "string" }; "no-install": { type: "boolean" } }; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: argv, options: { sluice: { type: "string" }, "no-install": { type: "boolean" } }, allowPositionals: true });
  } catch (error) {
    throw new StartupError(`new: ${(error as Error).message}; usage: sluice new ${USAGE}`);
  }
  const [name, ...extra] = parsed.positionals;
  if (name === undefined || extra.length > 0) throw new StartupError(`new needs one name; usage: sluice new ${USAGE}`);
  if (!PACKAGE_NAME.test(name)) throw new StartupError(`new: '${name}' is not an npm package name (lower case letters, digits, - . _ ~, optionally @scope/)`);
  return { name, sluice: parsed.values.sluice, install: parsed.values["no-install"] !== true };
}
