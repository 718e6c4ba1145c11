/**
 * Writes a topology package from package-template/: its files with `{{name}}` and `{{applicationId}}` filled in
 * (`gitignore` becomes `.gitignore`: npm leaves dot-ignore files out of its tarballs), and a package.json whose
 * dependency on Sluice is `sluiceSpec`.
 */
import fs from "node:fs";
import path from "node:path";

export const TEMPLATE = path.resolve(__dirname, "..", "..", "..", "plugins", "new-command", "package-template");

/** The TypeScript and Node.js typings a new package compiles with (strict, no skipLibCheck). */
const DEV_DEPENDENCIES = { "@types/node": "^20.19.0", typescript: "^5.9.3" };

export interface ScaffoldOptions {
  /** The npm package name; its last part names the folder and the application. */
  name: string;
  directory: string;
  sluiceSpec: string;
}

export function writePackage({ name, directory, sluiceSpec }: ScaffoldOptions): void {
  const values: Record<string, string> = { name, applicationId: applicationIdOf(name) };
  fs.mkdirSync(directory, { recursive: true });
  for (const relative of filesUnder(TEMPLATE)) {
    const text = fs.readFileSync(path.join(TEMPLATE, relative), "utf8").replace(/\{\{(\w+)\}\}/g, (placeholder, key: string) => values[key] ?? placeholder);
    const target = path.join(directory, relative === "gitignore" ? ".gitignore" : relative);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
  }
  fs.writeFileSync(path.join(directory, "package.json"), `${JSON.stringify(manifest(name, sluiceSpec), null, 2)}\n`);
}

/** The package name without its scope: a legal application.id (Kafka's topic characters) once lower-cased. */
export const applicationIdOf = (name: string) => name.slice(name.lastIndexOf("/") + 1);

function manifest(name: string, sluiceSpec: string) {
  return {
    name,
    version: "0.1.0",
    private: true,
    description: "Stream-processing applications run by Sluice",
    scripts: {
      build: "tsc -p .",
      test: "tsc -p . && node --test dist/test/*.test.js",
      // exec: npm's signals (SIGTERM, SIGINT) then reach Sluice itself rather than the shell npm runs scripts in.
      start: "tsc -p . && exec sluice start",
    },
    dependencies: { sluice: sluiceSpec },
    devDependencies: DEV_DEPENDENCIES,
  };
}

function filesUnder(root: string, folder = ""): string[] {
  return fs.readdirSync(path.join(root, folder), { withFileTypes: true }).flatMap((entry) => {
    const relative = path.join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(root, relative) : [relative];
  });
}
