/** GET /info: the `server.info.*` entries as nested JSON (`server.info.app.name: x` → `{"app":{"name":"x"}}`). */
import type { Plugin, PluginContext, RouteSpec } from "sluice";

const SPEC: RouteSpec = {
  summary: "The server.info entries as nested JSON",
  tags: ["server"],
  responses: { 200: { description: "server.info.app.name: x answers {\"app\": {\"name\": \"x\"}}; {} when none", schema: { type: "object" } } },
};

export class InfoPlugin implements Plugin {
  configure({ config, routes }: PluginContext): void {
    const info = nest(config.section("server.info"));
    routes.get("/info", () => info, { spec: SPEC });
  }
}

function nest(flat: Record<string, unknown>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.split(".");
    let node = root;
    for (const part of parts.slice(0, -1)) {
      const child = node[part];
      node = (typeof child === "object" && child !== null ? child : (node[part] = {})) as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = value;
  }
  return root;
}
