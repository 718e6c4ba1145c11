/**
 * The documentation's TypeScript samples (the README's, the guide's in docs/), compiled in a scratch package that
 * depends on Sluice by its name, as a user's does: strict, and without skipLibCheck, so Sluice's own declarations are
 * checked as a consumer's compiler checks them.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT } from "./sluice";

/** The first ```ts block after `heading` in README.md. */
export function readmeExample(heading: string): string | undefined {
  const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  return /```ts\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(heading)))?.[1];
}

export interface Sample {
  /** The file's name without `.ts`: its compiled module is `<dir>/<name>.js`. */
  name: string;
  source: string;
}

/** Every ```ts block of a Markdown file, named after the file and the line the block starts at. */
export function markdownSamples(file: string): Sample[] {
  const text = fs.readFileSync(file, "utf8");
  const base = path.basename(file, ".md");
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((match) => ({ name: `${base}-line-${text.slice(0, match.index).split("\n").length}`, source: match[1] }));
}

/**
 * Compiles the samples together in a fresh folder and answers it (the caller removes it): `<dir>/<name>.js` for each.
 * One compiler run for them all: it checks Sluice's declarations and Node.js's typings each time, several seconds of
 * a core, where the samples themselves take a few milliseconds.
 */
export function compileSamples(samples: readonly Sample[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-samples-"));
  try {
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "sluice"));
    for (const dependency of ["kafkajs", "@types"]) fs.symlinkSync(path.join(REPO_ROOT, "node_modules", dependency), path.join(dir, "node_modules", dependency));
    for (const { name, source } of samples) fs.writeFileSync(path.join(dir, `${name}.ts`), source);
    const compilerOptions = { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, types: ["node"] };
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: samples.map(({ name }) => `${name}.ts`) }));
    try {
      execFileSync(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { stdio: "pipe", encoding: "utf8" });
    } catch (error) {
      throw new Error(`the samples do not compile:\n${(error as { stdout: string }).stdout}`);
    }
    return dir;
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
