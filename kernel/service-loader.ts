/**
 * Service-provider discovery: reads META-INF/services/<contract id> descriptor files in the application root,
 * in Sluice's own package, in every installed package (scoped ones too) and in configured package folders,
 * and loads the implementations they name. Each non-blank, non-# line is `<module path>#<export>`, the module
 * path relative to the folder holding META-INF. Order is deterministic: the application first, then Sluice,
 * then installed packages by name, then configured packages in the order given.
 */
import fs from "node:fs";
import path from "node:path";
import fg from "fast-glob";
import type { ServiceModule } from "./contracts/plugin";
import type { Token } from "./contracts/token";
import { StartupError } from "./errors";

export interface DescriptorEntry {
  contract: string;
  /** Descriptor file, absolute. */
  file: string;
  /** 1-based line number in the descriptor. */
  line: number;
  packageRoot: string;
  modulePath: string;
  exportName: string;
}

export interface LoadedService<T> {
  entry: DescriptorEntry;
  /** The exported value: a class to instantiate or a ready object. */
  exported: T | (new () => T);
}

export interface ServiceLoaderOptions {
  /** The application's folder. */
  root: string;
  /** Sluice's own package folder (holds the built-in descriptors). */
  sluiceRoot: string;
  /** Extra package folders, absolute or relative to root. */
  extraPackages?: readonly string[];
}

export class ServiceLoader {
  private readonly packageRoots: string[];

  constructor(options: ServiceLoaderOptions) {
    this.packageRoots = dedupe([
      options.root,
      options.sluiceRoot,
      ...installedPackages(options.root),
      ...(options.extraPackages ?? []).map((p) => path.resolve(options.root, p)),
    ]);
  }

  /** Folders searched for descriptors, in discovery order. */
  roots(): readonly string[] {
    return this.packageRoots;
  }

  discover(contract: string): DescriptorEntry[] {
    const entries: DescriptorEntry[] = [];
    for (const packageRoot of this.packageRoots) {
      const file = path.join(packageRoot, "META-INF", "services", contract);
      if (!fs.existsSync(file)) continue;
      entries.push(...parseDescriptor(contract, file, packageRoot));
    }
    return entries;
  }

  async load<T>(contract: string): Promise<LoadedService<T>[]> {
    const loaded: LoadedService<T>[] = [];
    for (const entry of this.discover(contract)) loaded.push({ entry, exported: await loadEntry<T>(entry) });
    return loaded;
  }

  /** The implementations, a class exported by a line instantiated with `create`, each named by its line. */
  async instances<T>(contract: Token<T>, create: (type: new () => T) => T = (type) => new type()): Promise<NamedService<T>[]> {
    return (await this.load<T>(contract)).map(({ entry, exported }) => {
      try {
        // A descriptor line names a class to instantiate or a ready object.
        const construct = typeof exported === "function";
        const instance = construct ? create(exported as new () => T) : exported;
        // A class whose constructor takes arguments gets injected components, which only this thread has.
        const reloadable = !construct || (exported as new () => T).length === 0;
        return { name: describeEntry(entry), instance, module: reloadable ? { file: moduleFile(entry), exportName: entry.exportName, construct } : undefined };
      } catch (error) {
        throw new StartupError(`${entry.file}:${entry.line}: cannot create ${entry.exportName}: ${(error as Error).message}`, { cause: error });
      }
    });
  }
}

export interface NamedService<T> {
  /** `module#export`, or how the program that gave it is named. */
  name: string;
  instance: T;
  /** How another thread loads it again; undefined when it cannot (given in-process, or made with injected components). */
  module?: ServiceModule;
}

/** `module#Export`: how logs and messages name an implementation. */
export function describeEntry(entry: DescriptorEntry): string {
  return `${entry.modulePath}#${entry.exportName}`;
}

function parseDescriptor(contract: string, file: string, packageRoot: string): DescriptorEntry[] {
  const entries: DescriptorEntry[] = [];
  fs.readFileSync(file, "utf8").split(/\r?\n/).forEach((raw, index) => {
    const text = raw.trim().startsWith("#") ? "" : raw.replace(/\s+#.*$/, "").trim();
    if (text === "") return;
    const match = /^([^#\s]+)#([A-Za-z_$][\w$]*)$/.exec(text);
    if (!match) {
      throw new StartupError(`${file}:${index + 1}: descriptor line '${raw.trim()}' is not '<module path>#<export>'`);
    }
    entries.push({ contract, file, line: index + 1, packageRoot, modulePath: match[1], exportName: match[2] });
  });
  return entries;
}

function moduleFile(entry: DescriptorEntry): string {
  return require.resolve(path.resolve(entry.packageRoot, entry.modulePath));
}

async function loadEntry<T>(entry: DescriptorEntry): Promise<T | (new () => T)> {
  let moduleExports: Record<string, unknown>;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    moduleExports = require(moduleFile(entry));
  } catch (error) {
    throw new StartupError(`${entry.file}:${entry.line}: cannot load module '${entry.modulePath}': ${(error as Error).message}`, { cause: error });
  }
  const exported = moduleExports[entry.exportName];
  if (exported === undefined || exported === null) {
    throw new StartupError(`${entry.file}:${entry.line}: module '${entry.modulePath}' has no export '${entry.exportName}'`);
  }
  return exported as T | (new () => T);
}

function installedPackages(root: string): string[] {
  const modules = path.join(root, "node_modules");
  if (!fs.existsSync(modules)) return [];
  const manifests = fg.sync(["*/package.json", "@*/*/package.json"], { cwd: modules, onlyFiles: true, followSymbolicLinks: true });
  return manifests.map((manifest) => path.join(modules, path.dirname(manifest))).sort();
}

function dedupe(folders: string[]): string[] {
  const seen = new Set<string>();
  return folders.filter((folder) => {
    const real = fs.existsSync(folder) ? fs.realpathSync(folder) : folder;
    if (seen.has(real)) return false;
    seen.add(real);
    return true;
  });
}
