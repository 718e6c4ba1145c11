/**
 * Compressed answers: a response whose client accepts brotli or gzip (Accept-Encoding) is compressed when it is
 * large enough (`server.compression.threshold.bytes`, or written in pieces, with no length known up front) and of a
 * textual type. Pieces are compressed as they are written and flushed one by one, so a streamed answer keeps its
 * bounded memory and a slow one still reaches the client piece by piece. Left as they are: server-sent events, an
 * answer that already has a Content-Encoding (pre-compressed assets), `Cache-Control: no-transform`, bodiless
 * statuses. A HEAD answer gets the headers its GET would have.
 */
import { ServerResponse, type IncomingMessage, type OutgoingHttpHeader, type OutgoingHttpHeaders } from "node:http";
import zlib from "node:zlib";

export type ContentEncoding = "br" | "gzip";

interface Compression {
  encoding: ContentEncoding;
  threshold: number;
}

// Low levels, for speed: on JSON answers they come within a few per cent of the default levels' size.
const GZIP_LEVEL = 4;
const BROTLI_QUALITY = 2;

const COMPRESSIBLE_TYPE = /^(?:text\/(?!event-stream)|application\/(?:json|javascript|xml)|image\/svg\+xml|[^;]*\+(?:json|xml)(?:;|$))/i;

type Compressor = zlib.Gzip | zlib.BrotliCompress;

/** The ServerResponse of a server that compresses: plain unless `compressFor` was told an encoding the client accepts. */
export class CompressibleResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  private compression: Compression | undefined;
  private compressor: Compressor | undefined;

  /** Set before anything is written: the client's Accept-Encoding, and the size from which to compress. */
  compressFor(acceptEncoding: string | undefined, threshold: number): void {
    const encoding = preferredEncoding(acceptEncoding);
    if (encoding) this.compression = { encoding, threshold };
  }

  override writeHead(statusCode: number, ...rest: unknown[]): this {
    if (!this.compression) return super.writeHead(statusCode, ...(rest as [OutgoingHttpHeaders]));
    const [first, second] = rest;
    const message = typeof first === "string" ? first : undefined;
    this.applyHeaders(typeof first === "string" ? second : first);
    this.decide(statusCode);
    return message === undefined ? super.writeHead(statusCode) : super.writeHead(statusCode, message);
  }

  override write(chunk: unknown, ...rest: unknown[]): boolean {
    if (this.compression && !this.headersSent) this.writeHead(this.statusCode);
    if (!this.compressor) return super.write(chunk, ...(rest as [BufferEncoding]));
    const callback = rest.find((item) => typeof item === "function") as ((error?: Error | null) => void) | undefined;
    const encoding = typeof rest[0] === "string" ? (rest[0] as BufferEncoding) : undefined;
    const accepted = encoding ? this.compressor.write(chunk, encoding, callback) : this.compressor.write(chunk, callback);
    this.compressor.flush(this.compressor instanceof zlib.Gzip ? zlib.constants.Z_SYNC_FLUSH : zlib.constants.BROTLI_OPERATION_FLUSH);
    return accepted;
  }

  override end(...args: unknown[]): this {
    if (this.compression && !this.headersSent) {
      // The whole body is here: its length decides, as Node would send it.
      const chunk = typeof args[0] === "function" ? undefined : args[0];
      const encoding = typeof args[1] === "string" ? (args[1] as BufferEncoding) : undefined;
      if (chunk !== undefined && chunk !== null && !this.hasHeader("content-length")) this.setHeader("Content-Length", byteLength(chunk, encoding));
      this.writeHead(this.statusCode);
    }
    if (!this.compressor) return super.end(...(args as [() => void]));
    const callback = args.find((item) => typeof item === "function") as (() => void) | undefined;
    if (callback) this.once("finish", callback);
    const chunk = typeof args[0] === "function" ? undefined : args[0];
    if (chunk === undefined || chunk === null) this.compressor.end();
    else if (typeof args[1] === "string") this.compressor.end(chunk, args[1] as BufferEncoding);
    else this.compressor.end(chunk);
    return this;
  }

  /** The headers given to writeHead, set as Node itself sets them once headers were set before (they always are). */
  private applyHeaders(headers: unknown): void {
    if (Array.isArray(headers)) {
      const flat = headers as OutgoingHttpHeader[];
      for (let index = 0; index < flat.length; index += 2) this.removeHeader(String(flat[index]));
      for (let index = 0; index < flat.length; index += 2) this.appendHeader(String(flat[index]), flat[index + 1] as string);
    } else if (headers && typeof headers === "object") {
      for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) if (value !== undefined) this.setHeader(name, value);
    }
  }

  /** Decides once, with the headers complete, whether this answer is compressed, and sets its headers if so. */
  private decide(statusCode: number): void {
    const { encoding, threshold } = this.compression!;
    this.compression = undefined;
    if (statusCode < 200 || statusCode === 204 || statusCode === 304 || this.hasHeader("content-encoding")) return;
    if (!COMPRESSIBLE_TYPE.test(String(this.getHeader("content-type") ?? ""))) return;
    if (/\bno-transform\b/i.test(String(this.getHeader("cache-control") ?? ""))) return;
    const length = this.getHeader("content-length");
    if (length !== undefined && Number(length) < threshold) return;
    this.addVary();
    this.setHeader("Content-Encoding", encoding);
    this.removeHeader("Content-Length");
    if (this.req.method === "HEAD") return;
    this.compressor = createCompressor(encoding, length === undefined ? undefined : Number(length));
    this.pipeCompressed(this.compressor);
  }

  private addVary(): void {
    const vary = this.getHeader("vary");
    if (vary === undefined) this.setHeader("Vary", "Accept-Encoding");
    else if (!/\baccept-encoding\b|\*/i.test(String(vary))) this.setHeader("Vary", `${String(vary)}, Accept-Encoding`);
  }

  /** Compressed bytes go to the socket as they come, paused while it is full; a full compressor is the writer's drain. */
  private pipeCompressed(compressor: Compressor): void {
    compressor.on("data", (data: Buffer) => {
      if (!super.write(data)) compressor.pause();
    });
    this.on("drain", () => compressor.resume());
    compressor.on("drain", () => this.emit("drain"));
    compressor.once("end", () => super.end());
    compressor.once("error", (error) => this.destroy(error));
    this.once("close", () => compressor.destroy());
  }
}

function createCompressor(encoding: ContentEncoding, length: number | undefined): Compressor {
  if (encoding === "gzip") return zlib.createGzip({ level: GZIP_LEVEL });
  const params: Record<number, number> = { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY };
  if (length !== undefined) params[zlib.constants.BROTLI_PARAM_SIZE_HINT] = length;
  return zlib.createBrotliCompress({ params });
}

function byteLength(chunk: unknown, encoding: BufferEncoding | undefined): number {
  return typeof chunk === "string" ? Buffer.byteLength(chunk, encoding) : (chunk as Uint8Array).byteLength;
}

// Clients send few distinct headers; parsing each once keeps negotiation off the request path.
const negotiated = new Map<string, ContentEncoding | null>();
const NEGOTIATED_KEPT = 64;

/** Brotli or gzip, by the client's q-values (brotli on a tie), or undefined when it accepts neither. */
export function preferredEncoding(acceptEncoding: string | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  let choice = negotiated.get(acceptEncoding);
  if (choice === undefined) {
    choice = parsePreferredEncoding(acceptEncoding);
    if (negotiated.size >= NEGOTIATED_KEPT) negotiated.clear();
    negotiated.set(acceptEncoding, choice);
  }
  return choice ?? undefined;
}

function parsePreferredEncoding(acceptEncoding: string): ContentEncoding | null {
  const weights = new Map<string, number>();
  for (const item of acceptEncoding.split(",")) {
    const [coding, ...parameters] = item.split(";").map((part) => part.trim().toLowerCase());
    if (!coding) continue;
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(coding, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (coding: ContentEncoding) => weights.get(coding) ?? (coding === "gzip" ? weights.get("x-gzip") : undefined) ?? weights.get("*") ?? 0;
  const br = weightOf("br");
  const gzip = weightOf("gzip");
  if (br > 0 && br >= gzip) return "br";
  return gzip > 0 ? "gzip" : null;
}
