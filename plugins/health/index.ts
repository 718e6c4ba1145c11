/**
 * GET /health: UP unless an application is in ERROR (then DOWN, 503). Applications still restoring their state
 * are listed under `not_ready`, and make `ready` false, so an orchestrator can hold traffic back.
 */
import type { ServerResponse } from "node:http";
import type { DependencyContainer } from "tsyringe";
import { HEALTH_INDICATOR, type HealthIndicator } from "../../kernel/contracts/health";
import type { Plugin, PluginContext } from "../../kernel/contracts/plugin";
import { sendJson } from "../../kernel/http/responses";

export class HealthPlugin implements Plugin {
  configure({ routes, components }: PluginContext): void {
    routes.get("/health", (_req, res) => this.report(components, res));
  }

  private async report(components: DependencyContainer, res: ServerResponse): Promise<void> {
    const indicators = components.isRegistered(HEALTH_INDICATOR, true) ? components.resolveAll<HealthIndicator>(HEALTH_INDICATOR) : [];
    const applications: Record<string, string> = {};
    const notReady: string[] = [];
    for (const indicator of indicators) {
      Object.assign(applications, indicator.applicationStates());
      notReady.push(...((await indicator.notReady?.()) ?? []));
    }
    const down = Object.values(applications).includes("ERROR");
    const sorted = Object.fromEntries(Object.entries(applications).sort(([a], [b]) => a.localeCompare(b)));
    sendJson(res, down ? 503 : 200, { status: down ? "DOWN" : "UP", ready: !down && notReady.length === 0, not_ready: notReady.sort(), applications: sorted });
  }
}
