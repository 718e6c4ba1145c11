/** Writing JSON, text and error responses: the one place response bodies are serialized. */
import type { ServerResponse } from "node:http";
import type { ErrorBody } from "./http-error";

export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": JSON_CONTENT_TYPE, "Content-Length": Buffer.byteLength(payload) });
  res.end(payload);
}

export function sendText(res: ServerResponse, status: number, body: string, contentType = "text/plain; charset=utf-8"): void {
  res.writeHead(status, { "Content-Type": contentType, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export function sendError(res: ServerResponse, status: number, message: string, path: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body: ErrorBody = { error_code: status, message, path };
  sendJson(res, status, body);
}
