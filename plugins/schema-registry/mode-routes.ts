/**
 * The registry's `mode` routes, as Confluent's registry serves them: GET/PUT/DELETE /mode, GET/PUT/DELETE /mode/{subject}.
 * Anyone who reads may see a mode; only an admin sets or removes one (shared/API.md §8).
 */
import { jsonBody, type RouteRegistrar, type SluiceRequest } from "sluice";
import { MODE_SPECS } from "./mode-route-specs";
import { modeOf } from "./modes";
import { type answerWith, REGISTRY_PATH } from "./registry-routes";
import type { SchemaRegistry } from "./schema-registry";

export function registerModeRoutes(routes: RouteRegistrar, registry: SchemaRegistry, answer: ReturnType<typeof answerWith>): void {
  const set = (subject: (req: SluiceRequest) => string | null) =>
    answer(async (req) => ({ mode: await registry.setMode(subject(req), modeIn(req), req.query.force === "true") }));
  routes.get(`${REGISTRY_PATH}/mode`, answer(() => ({ mode: registry.modeOf(null) })), { spec: MODE_SPECS.globalMode });
  routes.put(`${REGISTRY_PATH}/mode`, set(() => null), { role: "admin", spec: MODE_SPECS.setGlobalMode });
  routes.get(`${REGISTRY_PATH}/mode/:subject`, answer((req) => ({ mode: registry.subjectMode(req.params.subject, req.query.defaultToGlobal === "true") })), {
    spec: MODE_SPECS.subjectMode,
  });
  routes.put(`${REGISTRY_PATH}/mode/:subject`, set((req) => req.params.subject), { role: "admin", spec: MODE_SPECS.setSubjectMode });
  const remove = (subject: (req: SluiceRequest) => string | null) => answer(async (req) => ({ mode: await registry.deleteMode(subject(req), req.query.recursive === "true") }));
  routes.delete(`${REGISTRY_PATH}/mode`, remove(() => null), { role: "admin", spec: MODE_SPECS.deleteGlobalMode });
  routes.delete(`${REGISTRY_PATH}/mode/:subject`, remove((req) => req.params.subject), {
    role: "admin",
    spec: MODE_SPECS.deleteSubjectMode,
  });
}

/** The mode in a `PUT /mode` body `{"mode": mode}`; 42204 when it is not one. */
const modeIn = (req: SluiceRequest) => modeOf(((jsonBody(req) ?? {}) as { mode?: unknown }).mode);
