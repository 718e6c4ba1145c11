/** An error that becomes an HTTP response of the single error shape (docs/api.md#conventions). */
import type { JsonSchema } from "./json-schema";

export class HttpError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
    this.name = "HttpError";
  }
}

export interface ErrorBody {
  error_code: number;
  message: string;
  path: string;
}

/** ErrorBody as /api/v1/openapi.json describes it. */
export const ERROR_BODY_SCHEMA: JsonSchema = {
  type: "object",
  description: "Every error, on every path: its status, a message naming the problem, the request's path",
  properties: {
    error_code: { type: "integer", description: "The HTTP status", examples: [404] },
    message: { type: "string", examples: ["Unknown application 'foo'"] },
    path: { type: "string", examples: ["/api/v1/streams/foo"] },
  },
  required: ["error_code", "message", "path"],
  additionalProperties: false,
};

export const badRequest = (message: string) => new HttpError(400, message);
export const notFound = (message: string) => new HttpError(404, message);
export const conflict = (message: string) => new HttpError(409, message);
