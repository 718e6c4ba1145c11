/**
 * `module#export` as trusted configuration names code: the module is resolved from the working directory (a
 * relative path) or the installed packages. Node's own modules (`process`, `inspector`, `child_process`, `node:*`)
 * are refused whoever names them: none of them is a serde, a setter or a token provider, and each can end or take
 * over the process.
 */
import { isBuiltin } from "node:module";
import path from "node:path";

export function loadModuleExport(reference: string, baseDir = process.cwd()): unknown {
  const [modulePath, exportName = "default"] = reference.split("#");
  if (isBuiltin(modulePath)) throw new Error(`'${modulePath}' is one of Node's own modules, which configuration never names`);
  const resolvedPath = modulePath.startsWith(".") ? path.resolve(baseDir, modulePath) : modulePath;
  const resolved = require.resolve(resolvedPath, { paths: [baseDir] });
  if (isBuiltin(resolved)) throw new Error(`'${modulePath}' is one of Node's own modules, which configuration never names`);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(resolved) as Record<string, unknown>;
  if (!(exportName in loaded)) throw new Error(`module '${modulePath}' has no export '${exportName}'`);
  return loaded[exportName];
}

/** Whether a configured value names a module (`module#export`) rather than a registration or a built-in. */
export const namesModule = (value: string): boolean => value.includes("#");
