/**
 * The operator console at /ui/: a single-page application built from `client/` that reads only the public REST
 * API and event streams. Its files hold no data, so they are served without authentication — the page must load
 * to show its login form — and every request the page makes is checked like any other. `/ui` redirects to
 * `/ui/`; a path under `/ui/` that names no file is one of the console's own pages and gets index.html, so a
 * deep link survives a reload. Off with `server.webui.enable=false`.
 */
import type { ServerResponse } from "node:http";
import { configSection, HttpError, type Plugin, type PluginContext, type RouteSpec, type SluiceRequest } from "sluice";
import { sendAsset } from "./asset-response";
import { INDEX_PAGE, readConsoleAssets, type ConsoleAsset } from "./console-assets";

const BASE = "/ui";
const SPECS = {
  base: { summary: "The operator console: redirects to /ui/", tags: ["console"], responses: { 301: { description: "Location: /ui/" } } },
  files: {
    summary: "The operator console's page and files, served without authentication",
    tags: ["console"],
    pathParameters: { path: { description: "A file of the console, or any other path, which is one of its pages (index.html)" } },
    responses: { 200: { description: "The file: HTML, JavaScript, CSS or an image" }, 404: "A name with an extension that is no file of the console" },
  },
} satisfies Record<string, RouteSpec>;

/** The plugin's sub-section of `server`. */
export const WEBUI_CONFIG = configSection({
  name: "server.webui",
  doc: "The operator console at `/ui/`.",
  keys: {
    "enable": { type: "boolean", default: true, doc: "Serve the operator console at /ui/ (its files are public; everything it shows comes from the API, with the same checks)." },
  },
});

export class WebUiPlugin implements Plugin {
  readonly configSections = [WEBUI_CONFIG];

  configure({ config, routes }: PluginContext): void {
    if (!config.of(WEBUI_CONFIG).get("enable")) return;
    const assets = readConsoleAssets();
    const serve = (req: SluiceRequest, res: ServerResponse) => this.serve(assets, req, res);
    routes.get(BASE, serve, { public: true, spec: SPECS.base });
    routes.get(`${BASE}/*`, serve, { public: true, spec: SPECS.files });
  }

  private serve(assets: Map<string, ConsoleAsset>, req: SluiceRequest, res: ServerResponse): void {
    // The router takes /ui/ for /ui: only the path itself tells them apart.
    if (req.path === BASE) {
      const query = req.url?.includes("?") ? req.url.slice(req.url.indexOf("?")) : "";
      res.writeHead(301, { Location: `${BASE}/${query}` }).end();
      return;
    }
    const file = req.path.slice(BASE.length + 1);
    const asset = assets.get(file === "" ? INDEX_PAGE : file);
    if (asset) return sendAsset(req, res, asset);
    // A name with an extension is a file that does not exist; anything else is a page of the console.
    if (/\.[a-z0-9]+$/i.test(file)) throw new HttpError(404, `The console has no file '${file}'`);
    sendAsset(req, res, assets.get(INDEX_PAGE)!);
  }
}
