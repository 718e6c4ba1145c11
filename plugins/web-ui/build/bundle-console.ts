/**
 * Builds the console (`npm run build` runs it after tsc): esbuild bundles client/ into content-hashed files
 * under console/assets/, index.html is written with their names, and every file gets a gzip twin at the highest
 * level, so that Sluice serves it precompressed.
 *
 *   node dist/plugins/web-ui/build/bundle-console.js
 */
import fs from "node:fs";
import path from "node:path";
import { gzipSync, constants } from "node:zlib";
import { build } from "esbuild";

const REPO_ROOT = path.resolve(__dirname, "..", "..", "..", "..");
const CLIENT = path.join(REPO_ROOT, "plugins", "web-ui", "client");
const OUTPUT = path.join(REPO_ROOT, "dist", "plugins", "web-ui", "console");

async function main(): Promise<void> {
  fs.rmSync(OUTPUT, { recursive: true, force: true });
  const result = await build({
    entryPoints: { console: path.join(CLIENT, "main.tsx"), styles: path.join(CLIENT, "styles.css") },
    outdir: OUTPUT,
    entryNames: "assets/[name]-[hash]",
    bundle: true,
    minify: true,
    format: "esm",
    target: ["chrome110", "firefox115", "safari16"],
    jsx: "automatic",
    jsxImportSource: "preact",
    legalComments: "eof",
    metafile: true,
    logLevel: "warning",
  });
  const outputs = Object.entries(result.metafile.outputs);
  const named = (entry: string) => {
    const found = outputs.find(([, output]) => output.entryPoint !== undefined && path.resolve(REPO_ROOT, output.entryPoint) === path.join(CLIENT, entry));
    if (!found) throw new Error(`esbuild wrote no output for ${entry}`);
    return `/ui/${path.relative(OUTPUT, path.resolve(REPO_ROOT, found[0])).split(path.sep).join("/")}`;
  };
  const page = fs
    .readFileSync(path.join(CLIENT, "index.html"), "utf8")
    .replace("{{script}}", named("main.tsx"))
    .replace("{{styles}}", named("styles.css"));
  fs.writeFileSync(path.join(OUTPUT, "index.html"), page);
  fs.copyFileSync(path.join(CLIENT, "favicon.svg"), path.join(OUTPUT, "favicon.svg"));
  for (const file of filesUnder(OUTPUT)) {
    const body = fs.readFileSync(file);
    const gzipped = gzipSync(body, { level: constants.Z_BEST_COMPRESSION });
    fs.writeFileSync(`${file}.gz`, gzipped);
  }
}

function filesUnder(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(folder, entry.name);
    return entry.isDirectory() ? filesUnder(file) : [file];
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
