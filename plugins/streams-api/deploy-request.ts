/**
 * The body of POST /api/v1/streams: `{"topology": string, "version"?: string, "config": {"application.id": string, …}}`.
 * Only the shape is checked here; the runtime checks the names and the configuration against what it knows.
 */
import { badRequest } from "../../kernel/http/http-error";
import type { DeployRequest } from "../../kernel/contracts/streams/deployments";

const FIELDS = ["topology", "version", "config"];

const kindOf = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "an array" : typeof value);

export function parseDeployRequest(body: unknown): DeployRequest {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest(`Deploy request body must be a JSON object such as {"topology": "WordCount", "config": {"application.id": "wordcount-b"}}, got ${body === undefined ? "no body" : kindOf(body)}`);
  }
  const fields = body as Record<string, unknown>;
  for (const field of Object.keys(fields)) {
    if (!FIELDS.includes(field)) throw badRequest(`Deploy request body has an unknown field '${field}'; the fields are ${FIELDS.join(", ")}`);
  }
  const { topology, version, config } = fields;
  if (typeof topology !== "string" || topology === "") throw badRequest(`Field 'topology' must be the name of a topology (GET /api/v1/topologies), got ${topology === undefined ? "nothing" : kindOf(topology)}`);
  if (version !== undefined && (typeof version !== "string" || version === "")) throw badRequest(`Field 'version' must be a version of the topology or 'latest', got ${kindOf(version)}`);
  if (typeof config !== "object" || config === null || Array.isArray(config)) {
    throw badRequest(`Field 'config' must be a JSON object holding at least 'application.id', got ${config === undefined ? "nothing" : kindOf(config)}`);
  }
  return { topology, version, config: config as Record<string, unknown> };
}
