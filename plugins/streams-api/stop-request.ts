/**
 * The optional body of DELETE|POST /api/v1/streams/{id}/stop (API.md §1.6) and of DELETE /api/v1/streams/{id}
 * (terminate): `{"cleanup": boolean}`.
 */
import { badRequest } from "../../kernel/http/http-error";

export interface StopRequest {
  cleanup: boolean;
}

export function parseStopRequest(body: unknown, request = "Stop request"): StopRequest {
  if (body === undefined) return { cleanup: false };
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest(`${request} body must be a JSON object such as {"cleanup": true}, got ${body === null ? "null" : Array.isArray(body) ? "an array" : typeof body}`);
  }
  for (const field of Object.keys(body)) {
    if (field !== "cleanup") throw badRequest(`${request} body has an unknown field '${field}'; the only field is 'cleanup' (boolean)`);
  }
  const cleanup = (body as { cleanup?: unknown }).cleanup;
  if (cleanup !== undefined && typeof cleanup !== "boolean") {
    throw badRequest(`Field 'cleanup' must be a boolean, got ${cleanup === null ? "null" : typeof cleanup}`);
  }
  return { cleanup: cleanup ?? false };
}
