/** The codecs of one API: its request and response declarations, bound to the versions it implements. */
import type { ByteReader } from "./byte-reader";
import { ByteWriter } from "./byte-writer";
import { MessageCodec } from "./codec";
import type { ApiSpec, DecodedStructOf, RequestOf, ResponseOf, StructOf } from "./schema";
import { inRange, parseVersionRange, type VersionRange } from "./version-range";

/** What a client encodes: fields with a declared default may be omitted. */
export type RequestBodyOf<A extends ApiSpec> = StructOf<A["request"]>;
/** What a client decodes: every field present. */
export type DecodedResponseOf<A extends ApiSpec> = DecodedStructOf<A["response"]>;

export class ApiCodec<A extends ApiSpec = ApiSpec> {
  readonly versions: VersionRange;
  private readonly request: MessageCodec;
  private readonly response: MessageCodec;

  constructor(readonly spec: A) {
    this.versions = parseVersionRange(spec.versions);
    this.request = new MessageCodec(`${spec.name}Request`, spec.request);
    this.response = new MessageCodec(`${spec.name}Response`, spec.response);
  }

  get apiKey(): number {
    return this.spec.apiKey;
  }

  supports(version: number): boolean {
    return inRange(this.versions, version);
  }

  decodeRequest(reader: ByteReader, version: number): RequestOf<A> {
    return this.request.decode(reader, version) as RequestOf<A>;
  }

  /** A whole request frame, as a client sends it: size prefix, request header v1, then the body. */
  encodeRequestFrame(correlationId: number, version: number, clientId: string | null, body: RequestBodyOf<A>): Buffer[] {
    const writer = new ByteWriter();
    writer.int32(0);
    writer.int16(this.spec.apiKey);
    writer.int16(version);
    writer.int32(correlationId);
    writer.nullableString(clientId);
    this.request.encode(writer, version, body);
    return writer.finishFrame();
  }

  /** A response body, read after its header (the correlation id) by the client that sent the request. */
  decodeResponse(reader: ByteReader, version: number): DecodedResponseOf<A> {
    return this.response.decode(reader, version) as DecodedResponseOf<A>;
  }

  /** A whole response frame: size prefix, response header v0 (the correlation id), then the body. */
  encodeResponseFrame(correlationId: number, version: number, body: ResponseOf<A>): Buffer[] {
    const writer = new ByteWriter();
    writer.int32(0);
    writer.int32(correlationId);
    this.response.encode(writer, version, body);
    return writer.finishFrame();
  }
}
