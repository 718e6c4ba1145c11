/** What the health routes answer: the same body with 200 (UP) or 503 (DOWN). */
import { APPLICATION_STATES, type JsonSchema, objectSchema, type RouteSpec } from "sluice";

const STATUS: JsonSchema = { enum: ["UP", "DOWN"] };
const BY_APPLICATION: JsonSchema = { type: "object", additionalProperties: { type: "string" } };

const LIVENESS = objectSchema({ status: STATUS, event_loop_max_delay_ms: { type: "number" }, threshold_ms: { type: "integer" } });
/** The fields an unauthenticated caller is not told (authentication on, a public path). */
const AUTHENTICATED_ONLY = "; only to an authenticated caller when authentication is on";
const READINESS = objectSchema(
  { status: STATUS, not_ready: { ...BY_APPLICATION, description: `Application id → why it is not ready (its state, or restoring)${AUTHENTICATED_ONLY}` } },
  { optional: ["not_ready"] },
);
const HEALTH = objectSchema(
  {
    status: STATUS,
    ready: { type: "boolean" },
    not_ready: { type: "array", items: { type: "string" }, description: "Applications still restoring a store" },
    paused: { type: "array", items: { type: "string" }, description: "Applications paused by an operator (ready: they answer queries)" },
    applications: { type: "object", additionalProperties: { enum: APPLICATION_STATES }, description: "Application id → state" },
    components: objectSchema({ liveness: LIVENESS, readiness: READINESS }),
  },
  { optional: ["ready", "not_ready", "paused", "applications", "components"], description: `All but status${AUTHENTICATED_ONLY}` },
);

const probe = (summary: string, up: string, down: string, schema: JsonSchema): RouteSpec => ({
  summary,
  tags: ["health"],
  responses: { 200: { description: up, schema }, 503: { description: down, schema } },
});

export const HEALTH_SPECS = {
  health: probe("Health of the process and its applications", "UP", "DOWN: an application is in ERROR", HEALTH),
  liveness: probe("Whether the process and its event loop are alive", "UP", "DOWN: the event loop was blocked longer than server.health.liveness.max.lag.ms in the last ten seconds", LIVENESS),
  readiness: probe("Whether every application is RUNNING and none restores a store", "UP", "DOWN, naming each application that is not ready", READINESS),
} satisfies Record<string, RouteSpec>;
