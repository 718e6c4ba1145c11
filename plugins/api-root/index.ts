/** GET /api/v1: the Sluice version and whether the server is headless. */
import { objectSchema, type Plugin, type PluginContext, type RouteSpec } from "sluice";

const SPEC: RouteSpec = {
  summary: "Sluice's version and whether the server is headless",
  tags: ["server"],
  responses: { 200: { description: "The API root", schema: objectSchema({ version: { type: "string" }, headless: { type: "boolean" } }) } },
};

export class ApiRootPlugin implements Plugin {
  configure({ routes, kernel }: PluginContext): void {
    const body = { version: kernel.version, headless: kernel.headless() };
    routes.get("/api/v1", () => body, { spec: SPEC });
  }
}
