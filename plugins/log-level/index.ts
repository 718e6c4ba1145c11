/**
 * The log level while Sluice runs: GET /api/v1/log/level answers `{"level": "info"}`; PUT with `{"level": "debug"}`
 * sets it for every logger of the process at once, the applications' log files included. Only an admin may, and
 * never above `info`: audit lines are written at info and failed logins at warn, and whoever could hide them could
 * act unseen. The change itself is an audit line (as every operation is).
 */
import { badRequest, LOG_LEVEL, LOG_LEVELS, type LogLevel, objectSchema, type Plugin, type PluginContext, type RouteSpec } from "sluice";

const PATH = "/api/v1/log/level";
/** The least verbose level PUT may set: audit lines are written at info. */
const SETTABLE: readonly LogLevel[] = ["debug", "info"];
const LEVEL = objectSchema({ level: { enum: LOG_LEVELS } });
const SPECS = {
  get: { summary: "The log level of the process", tags: ["server"], responses: { 200: { description: "The level", schema: LEVEL } } },
  put: {
    summary: "Set the log level of every logger of the process, the applications' log files included: debug or info (admin)",
    tags: ["server"],
    body: { description: 'the new level, as {"level": "debug"}', schema: LEVEL },
    responses: { 200: { description: "The level now in force", schema: LEVEL } },
  },
} satisfies Record<string, RouteSpec>;

export class LogLevelPlugin implements Plugin {
  readonly requires = [LOG_LEVEL];

  configure({ components, routes, logger }: PluginContext): void {
    const setting = components.resolve(LOG_LEVEL);
    routes.get(PATH, () => ({ level: setting.level }), { spec: SPECS.get });
    routes.put(
      PATH,
      (req) => {
        // Checked by the router against LEVEL.
        const { level } = req.body as { level: LogLevel };
        if (!SETTABLE.includes(level)) {
          throw badRequest(`Field 'level' must be one of ${SETTABLE.join(", ")}: at '${level}' the audit lines (info) and failed logins (warn) would not be written`);
        }
        const previous = setting.level;
        setting.level = level;
        logger.info("log level changed", { level, previous, principal: req.principal?.name });
        return { level };
      },
      { role: "admin", spec: SPECS.put },
    );
  }
}
