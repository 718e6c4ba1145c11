/**
 * `<streams.state.dir>/deployments.json`: the instances deployed over REST, and the pause and terminate decisions
 * made over REST, so a restarted (or killed) Sluice brings back the same instances in the same state. Readable by
 * Sluice's user only (0600), with secrets sealed (sealed-secrets.ts). Written whole
 * on each change: a temporary file, fsynced, renamed over the old one, the directory fsynced — a crash leaves the old
 * file or the new one, never half of one.
 */
import fs from "node:fs";
import path from "node:path";
import type { ConfigValue } from "../../../kernel/contracts/streams/topology-provider";
import { StartupError } from "../../../kernel/errors";

export interface DeployedInstance {
  id: string;
  topology: string;
  /** The version resolved when it was deployed (never `latest`), so a restart runs the same one. */
  version: string;
  config: Record<string, ConfigValue>;
}

export interface DeploymentDecisions {
  deployed: DeployedInstance[];
  /** Ids of instances paused over REST. */
  paused: string[];
  /** Ids of boot-time instances (descriptors, `Sluice.register`) terminated over REST: they start no more. */
  terminated: string[];
}

const FORMAT_VERSION = 1;

export const DEPLOYMENTS_FILE_NAME = "deployments.json";

export class DeploymentFile {
  readonly path: string;

  constructor(stateDir: string) {
    this.path = path.join(stateDir, DEPLOYMENTS_FILE_NAME);
  }

  /** The decisions kept, none when the file does not exist; a file that cannot be read as them stops startup naming it. */
  read(): DeploymentDecisions {
    let text: string;
    try {
      text = fs.readFileSync(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { deployed: [], paused: [], terminated: [] };
      throw new StartupError(`Cannot read the deployments file ${this.path}: ${(error as Error).message}`);
    }
    try {
      return decisionsOf(JSON.parse(text));
    } catch (error) {
      throw new StartupError(
        `The deployments file ${this.path} is corrupt (${(error as Error).message}); it keeps the instances deployed, paused and terminated over REST. ` +
          "Repair it, or move it away to start with the boot-time applications only",
      );
    }
  }

  write(decisions: DeploymentDecisions): void {
    fs.mkdirSync(path.dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    const body = JSON.stringify({ format: FORMAT_VERSION, ...decisions }, null, 2) + "\n";
    const fd = fs.openSync(temporary, "w", 0o600);
    try {
      // A temporary file left by an earlier process of the same pid keeps its mode: set it whatever it was.
      fs.fchmodSync(fd, 0o600);
      fs.writeSync(fd, body);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, this.path);
    const directory = fs.openSync(path.dirname(this.path), "r");
    try {
      fs.fsyncSync(directory);
    } finally {
      fs.closeSync(directory);
    }
  }
}

function decisionsOf(json: unknown): DeploymentDecisions {
  const file = record(json, "the file");
  if (file.format !== FORMAT_VERSION) throw new Error(`'format' must be ${FORMAT_VERSION}, got ${JSON.stringify(file.format)}`);
  const deployed = list(file.deployed, "deployed").map((entry, index) => {
    const where = `deployed[${index}]`;
    const instance = record(entry, where);
    const [id, topology, version] = ["id", "topology", "version"].map((field) => text(instance[field], `${where}.${field}`));
    const config = record(instance.config, `${where}.config`);
    for (const [key, value] of Object.entries(config)) {
      const scalar = typeof value === "string" || typeof value === "number" || typeof value === "boolean";
      if (!scalar && !(Array.isArray(value) && value.every((item) => typeof item === "string"))) throw new Error(`'${where}.config.${key}' is not a configuration value`);
    }
    return { id, topology, version, config: config as Record<string, ConfigValue> };
  });
  const ids = (field: string) => list(file[field], field).map((id, index) => text(id, `${field}[${index}]`));
  return { deployed, paused: ids("paused"), terminated: ids("terminated") };
}

function record(value: unknown, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error(`${what} must be a JSON object`);
  return value as Record<string, unknown>;
}

function list(value: unknown, field: string): unknown[] {
  if (!Array.isArray(value)) throw new Error(`'${field}' must be an array`);
  return value;
}

function text(value: unknown, field: string): string {
  if (typeof value !== "string" || value === "") throw new Error(`'${field}' must be a non-empty string`);
  return value;
}
