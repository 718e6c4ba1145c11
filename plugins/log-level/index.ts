/**
 * The log level while Sluice runs: GET /api/v1/log/level answers `{"level": "info"}`; PUT with `{"level": "debug"}`
 * sets it for every logger of the process at once, the applications' log files included (operator only, as every
 * method but GET, once authentication is on).
 */
import type { Plugin, PluginContext } from "../../kernel/contracts/plugin";
import { LOG_LEVEL } from "../../kernel/contracts/tokens";
import { badRequest } from "../../kernel/http/http-error";
import { jsonBody } from "../../kernel/http/request";
import { isLogLevel, LOG_LEVELS, type LogLevel } from "../../kernel/logger";

const PATH = "/api/v1/log/level";

export class LogLevelPlugin implements Plugin {
  configure({ components, routes, logger }: PluginContext): void {
    const setting = components.resolve(LOG_LEVEL);
    routes.get(PATH, () => ({ level: setting.level }));
    routes.put(PATH, (req) => {
      const level = parseLevelRequest(jsonBody(req));
      const previous = setting.level;
      setting.level = level;
      logger.info("log level changed", { level, previous, principal: req.principal?.name });
      return { level };
    });
  }
}

function parseLevelRequest(body: unknown): LogLevel {
  const expected = `a JSON object such as {"level": "debug"}`;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest(`Log level request body must be ${expected}, got ${body === undefined ? "no body" : body === null ? "null" : Array.isArray(body) ? "an array" : typeof body}`);
  }
  for (const field of Object.keys(body)) {
    if (field !== "level") throw badRequest(`Log level request body has an unknown field '${field}'; the only field is 'level'`);
  }
  const { level } = body as { level?: unknown };
  if (!isLogLevel(level)) throw badRequest(`Field 'level' must be one of ${LOG_LEVELS.join(", ")}, got ${level === undefined ? "nothing" : JSON.stringify(level)}`);
  return level;
}
