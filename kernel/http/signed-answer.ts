/**
 * An answer to another instance, signed: what the route writes is held back, and sent whole once it ends, with a
 * header that proves it (the peer proof of peer-proof.ts). Forwarded queries are bounded by the query, and the
 * forwarding instance holds the whole answer anyway.
 */
import type { OutgoingHttpHeaders, ServerResponse } from "node:http";

type Callback = (error?: Error | null) => void;

export function signAnswer(res: ServerResponse, header: string, sign: (status: number, body: Buffer) => string): void {
  const chunks: Buffer[] = [];
  const writeHead = res.writeHead.bind(res) as (status: number) => ServerResponse;
  const end = res.end.bind(res) as (body: Buffer, callback?: () => void) => ServerResponse;
  const take = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8"));
  };
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    res.statusCode = status;
    const headers = rest.find((item) => typeof item === "object" && item !== null) as OutgoingHttpHeaders | unknown[] | undefined;
    if (Array.isArray(headers)) for (let index = 0; index < headers.length; index += 2) res.setHeader(String(headers[index]), headers[index + 1] as string);
    else if (headers) for (const [name, value] of Object.entries(headers)) if (value !== undefined) res.setHeader(name, value);
    return res;
  }) as ServerResponse["writeHead"];
  res.write = ((chunk: unknown, encoding?: unknown, callback?: Callback) => {
    take(chunk, encoding);
    (typeof encoding === "function" ? (encoding as Callback) : callback)?.();
    return true;
  }) as ServerResponse["write"];
  res.end = ((chunk?: unknown, encoding?: unknown, callback?: () => void) => {
    take(chunk, encoding);
    const done = [chunk, encoding, callback].find((item) => typeof item === "function") as (() => void) | undefined;
    const body = Buffer.concat(chunks);
    res.setHeader(header, sign(res.statusCode, body));
    res.setHeader("Content-Length", body.length);
    writeHead(res.statusCode);
    return end(body, done);
  }) as ServerResponse["end"];
}
