/**
 * The console's built files (`npm run build` writes them beside this module, in `console/`), read once into
 * memory with their gzip twin and ETag. Files under `assets/` carry their content hash in their name and may be
 * cached for ever; the others (the page, its icon) are revalidated on every load.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { StartupError } from "sluice";

export interface ConsoleAsset {
  contentType: string;
  body: Buffer;
  /** The precompressed body, when the build wrote a `.gz` file and it is smaller. */
  gzipped: Buffer | undefined;
  etag: string;
  cacheControl: string;
}

const CONSOLE_FOLDER = path.join(__dirname, "console");
export const INDEX_PAGE = "index.html";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};
const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "no-cache";

/** Every servable file of `folder`, by its path relative to it ('/'-separated). */
export function readConsoleAssets(folder = CONSOLE_FOLDER): Map<string, ConsoleAsset> {
  if (!fs.existsSync(path.join(folder, INDEX_PAGE))) {
    throw new StartupError(`The console's files are missing from ${folder}: run 'npm run build', or set server.webui.enable=false`);
  }
  const assets = new Map<string, ConsoleAsset>();
  for (const relative of filesUnder(folder)) {
    const extension = path.extname(relative);
    const contentType = CONTENT_TYPES[extension];
    if (contentType === undefined) continue;
    const body = fs.readFileSync(path.join(folder, relative));
    const gzipFile = path.join(folder, `${relative}.gz`);
    const gzipped = fs.existsSync(gzipFile) ? fs.readFileSync(gzipFile) : undefined;
    assets.set(relative, {
      contentType,
      body,
      gzipped: gzipped && gzipped.length < body.length ? gzipped : undefined,
      etag: createHash("sha256").update(body).digest("base64url").slice(0, 22),
      cacheControl: relative.startsWith("assets/") ? IMMUTABLE : REVALIDATE,
    });
  }
  return assets;
}

function filesUnder(folder: string, prefix = ""): string[] {
  return fs.readdirSync(path.join(folder, prefix), { withFileTypes: true }).flatMap((entry) => {
    const relative = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
    return entry.isDirectory() ? filesUnder(folder, relative) : [relative];
  });
}
