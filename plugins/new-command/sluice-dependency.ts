/**
 * What a new package's dependency on Sluice says: where the running Sluice came from, so that the package installs
 * the same one — the spec the package that installed it declares (npx's own cache declares one too), a `file:` path
 * made absolute since the new package lives elsewhere; this checkout's folder when Sluice runs from its repository;
 * else this version from the registry.
 */
import fs from "node:fs";
import path from "node:path";

export function sluiceDependency(sluiceRoot: string, version: string): string {
  const modules = path.dirname(sluiceRoot);
  if (path.basename(modules) !== "node_modules") return `file:${sluiceRoot}`;
  const installer = path.dirname(modules);
  const declared = declaredSpec(path.join(installer, "package.json"));
  if (declared === undefined) return `^${version}`;
  return declared.startsWith("file:") ? `file:${path.resolve(installer, declared.slice("file:".length))}` : declared;
}

function declaredSpec(manifest: string): string | undefined {
  try {
    const { dependencies = {}, devDependencies = {} } = JSON.parse(fs.readFileSync(manifest, "utf8")) as Record<string, Record<string, string> | undefined>;
    return dependencies.sluice ?? devDependencies.sluice;
  } catch {
    return undefined;
  }
}
