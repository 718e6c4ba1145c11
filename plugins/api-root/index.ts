/** GET /api/v1: the Sluice version and whether the server is headless. */
import { SERVER_CONFIG } from "../../kernel/config/kernel-config";
import type { Plugin, PluginContext } from "../../kernel/contracts/plugin";
import { objectSchema } from "../../kernel/http/json-schema";
import type { RouteSpec } from "../../kernel/http/route-spec";

const SPEC: RouteSpec = {
  summary: "Sluice's version and whether the server is headless",
  tags: ["server"],
  responses: { 200: { description: "The API root", schema: objectSchema({ version: { type: "string" }, headless: { type: "boolean" } }) } },
};

export class ApiRootPlugin implements Plugin {
  configure({ config, routes, kernel }: PluginContext): void {
    const body = { version: kernel.version, headless: config.of(SERVER_CONFIG).get("headless") };
    routes.get("/api/v1", () => body, { spec: SPEC });
  }
}
