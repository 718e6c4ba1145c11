/** The README's TypeScript examples, compiled in a scratch package that depends on Sluice by its name, as a user's does. */
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

/** Compiles `source` as example.ts in a fresh folder and hands the folder (removed afterwards) to `use`. */
export function withCompiledExample<T>(source: string, use: (dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-readme-"));
  try {
    fs.mkdirSync(path.join(dir, "node_modules"));
    fs.symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "sluice"));
    for (const dependency of ["kafkajs", "@types"]) fs.symlinkSync(path.join(REPO_ROOT, "node_modules", dependency), path.join(dir, "node_modules", dependency));
    fs.writeFileSync(path.join(dir, "example.ts"), source);
    const compilerOptions = { strict: true, target: "ES2022", module: "commonjs", moduleResolution: "node", esModuleInterop: true, skipLibCheck: true, types: ["node"] };
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["example.ts"] }));
    execFileSync(process.execPath, [path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", dir], { stdio: "pipe" });
    return use(dir);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
