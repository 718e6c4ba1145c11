/** The declaration of GET /api/v1/openapi.json itself. */
import type { RouteSpec } from "sluice";

export const OPENAPI_SPEC: RouteSpec = {
  summary: "This document: the OpenAPI 3.1 description of every route Sluice serves",
  tags: ["server"],
  responses: { 200: { description: "An OpenAPI 3.1 document", schema: { type: "object", required: ["openapi", "info", "paths"] } } },
};
